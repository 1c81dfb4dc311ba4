import Foundation

/// Where the App Store Connect API is: `https://api.appstoreconnect.apple.com` unless a test or a
/// proxy says otherwise. Plain `http://` is accepted only on the loopback interface, so that a
/// bearer token never crosses a network in clear text.
public struct ConnectAPIAddress: Sendable, Equatable {
    /// Apple's address.
    public static let apple = ConnectAPIAddress(checked: "https://api.appstoreconnect.apple.com")

    /// The base URL, without a trailing `/`: paths such as `/v1/subscriptionOfferCodes` follow it.
    public let baseURL: String

    private init(checked: String) { baseURL = checked }

    /// Checks `text` as a base URL.
    /// - Throws: ``ConnectError/invalidBaseURL(_:reason:)``.
    public init(_ text: String) throws(ConnectError) {
        guard text.utf8.count <= 2048, let components = URLComponents(string: text), let scheme = components.scheme,
            let host = components.host, !host.isEmpty
        else {
            throw .invalidBaseURL(
                text, reason: "it is not an absolute URL such as https://api.appstoreconnect.apple.com")
        }
        guard components.query == nil, components.fragment == nil, components.user == nil, components.password == nil
        else {
            throw .invalidBaseURL(
                text, reason: "it has a query, fragment or user name; expected scheme, host, port and path")
        }
        switch scheme.lowercased() {
        case "https": break
        case "http":
            guard Self.isLoopback(host) else {
                throw .invalidBaseURL(
                    text,
                    reason: "plain http is refused except on the loopback interface (127.0.0.1, ::1, localhost): "
                        + "the bearer token would travel in clear text; use https")
            }
        default:
            throw .invalidBaseURL(text, reason: "the scheme is \(scheme); expected https (or http on loopback)")
        }
        var base = text
        while base.hasSuffix("/") { base.removeLast() }
        baseURL = base
    }

    /// The URL of `path` (which starts with `/`).
    package func url(_ path: String) -> String { baseURL + path }

    /// A `links.next` from an answer, moved under this base URL: its path (`/v1/…` or `/v2/…`)
    /// and query after ``baseURL``, whatever host it names, so that the token only ever goes to
    /// the base URL; `nil` when it is not such a URL.
    package func rebase(_ link: String) -> String? {
        guard link.utf8.count <= 4_096, let components = URLComponents(string: link) else { return nil }
        let path = components.percentEncodedPath
        guard path.hasPrefix("/v1/") || path.hasPrefix("/v2/"), !path.contains("/../"), components.fragment == nil
        else { return nil }
        return baseURL + path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    package static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
