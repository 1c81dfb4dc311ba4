import Foundation
import OfferJSON
import OfferSigning

/// The identifiers the Retention Messaging API takes in its paths and bodies, checked before a
/// request leaves: message, image and performance-test identifiers are UUIDs (sent in lower case,
/// as Apple's libraries send them), product IDs and locales are path segments, and an original
/// transaction ID is decimal digits. Each check names the field (a flag or a JSON path).
public enum RetentionIdentifier {
    /// The longest product ID OfferKit sends (App Store Connect product IDs are far shorter).
    public static let maximumProductIdLength = 255
    /// The longest locale OfferKit sends (Apple's short codes are 2 to 7 characters: `ja`, `zh-Hans`).
    public static let maximumLocaleLength = 32
    /// The longest original transaction ID OfferKit sends.
    public static let maximumTransactionIdLength = 64

    /// `text` as a UUID in lower case (`3F2B…` becomes `3f2b…`).
    /// - Throws: ``RequestValidationError/invalidFormat(field:expected:)`` naming `field`.
    public static func uuid(_ text: String, field: String) throws(RequestValidationError) -> String {
        guard text.utf8.count == 36, let uuid = UUID(uuidString: text) else {
            throw .invalidFormat(
                field: field,
                expected:
                    "a UUID such as 3f2b1c4e-8a7d-4f3e-9b2a-1c0d5e6f7a8b (Apple's identifiers are UUIDs you choose), "
                    + "found \(shown(text))")
        }
        return uuid.lowercasedString
    }

    /// `text` as a product ID: 1 to 255 letters, digits, `.`, `_` or `-` (App Store Connect's
    /// product ID characters), which go into a path as they are; never `.` or `..`, which a URL
    /// resolves to another path (`…/default/../en-US` would name another endpoint).
    public static func productId(_ text: String, field: String) throws(RequestValidationError) -> String {
        guard !text.isEmpty else { throw .empty(field: field) }
        guard text != ".", text != ".." else {
            throw .invalidFormat(
                field: field, expected: "a product ID, not the path segment \(shown(text))")
        }
        guard text.utf8.count <= maximumProductIdLength else {
            throw .tooLong(field: field, maximum: maximumProductIdLength, actual: text.utf8.count)
        }
        guard
            text.utf8.allSatisfy({
                $0.isASCIIAlphanumeric || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
            })
        else {
            throw .invalidFormat(
                field: field, expected: "a product ID of letters, digits, '.', '_' and '-', found \(shown(text))")
        }
        return text
    }

    /// `text` as a locale short code (`en-US`, `ja`, `zh-Hans`): 1 to 32 letters, digits and `-`.
    /// Apple's list of short codes and their case (they are case-sensitive) are Apple's to check.
    public static func locale(_ text: String, field: String) throws(RequestValidationError) -> String {
        guard !text.isEmpty else { throw .empty(field: field) }
        guard text.utf8.count <= maximumLocaleLength,
            text.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") }),
            text.utf8.first != UInt8(ascii: "-"), text.utf8.last != UInt8(ascii: "-")
        else {
            throw .invalidFormat(
                field: field,
                expected:
                    "a locale short code such as en-US, ja or zh-Hans (letters, digits and '-'), found \(shown(text))")
        }
        return text
    }

    /// `text` as an original transaction ID: 1 to 64 decimal digits.
    public static func originalTransactionId(_ text: String, field: String) throws(RequestValidationError) -> String {
        guard !text.isEmpty else { throw .empty(field: field) }
        guard text.utf8.count <= maximumTransactionIdLength, text.utf8.allSatisfy(\.isASCIIDigit)
        else {
            throw .invalidFormat(
                field: field,
                expected: "an original transaction ID of decimal digits such as 2000000900000001, found \(shown(text))")
        }
        return text
    }

    /// `text` for an error message: at most 48 characters, control characters replaced.
    static func shown(_ text: String) -> String {
        let clipped = text.count > 48 ? String(text.prefix(48)) + "…" : text
        return "\""
            + String(
                String.UnicodeScalarView(
                    clipped.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 })) + "\""
    }
}
