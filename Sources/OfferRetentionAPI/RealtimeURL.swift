import Foundation
import OfferSigning

/// The URL of a Get Retention Message endpoint (`realtimeURL`, Configure Realtime URL): Apple
/// takes it only when it starts with `https://` and is at most 256 characters long.
public enum RealtimeURL {
    /// Apple's limit.
    public static let maximumLength = 256

    /// `text` after Apple's rules and OfferKit's: `https://`, at most 256 characters, an absolute
    /// URL with a host and no user name, password or fragment.
    /// - Throws: ``RequestValidationError`` naming `field`.
    public static func checked(_ text: String, field: String = "realtimeURL") throws(RequestValidationError)
        -> String
    {
        guard !text.isEmpty else { throw .empty(field: field) }
        let length = text.unicodeScalars.count
        guard length <= maximumLength else { throw .tooLong(field: field, maximum: maximumLength, actual: length) }
        guard text.hasPrefix("https://") else {
            throw .invalidFormat(
                field: field,
                expected: "a URL that begins with https:// (Apple calls the endpoint over TLS 1.2 or later), found "
                    + RetentionIdentifier.shown(text))
        }
        guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil, components.fragment == nil
        else {
            throw .invalidFormat(
                field: field,
                expected: "an absolute https URL with a host, without user name, password or fragment, found "
                    + RetentionIdentifier.shown(text))
        }
        return text
    }
}
