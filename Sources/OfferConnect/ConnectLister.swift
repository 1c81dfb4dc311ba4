import OfferConnectAPI
import OfferSigning

/// Reads App Store Connect lists page by page (`links.next`) through ``ConnectTransport``: the
/// look-ups of `offerkit codes lookup` (apps, subscription groups, subscriptions, in-app
/// purchases, price points), with the token, pacing and retries of `codes apply`.
package struct ConnectLister: Sendable {
    /// The resource a list belongs to does not exist (`404`); `detail` is Apple's.
    package struct NotFound: Error, Sendable {
        package var path: String
        package var detail: String
    }

    /// A whole list: its resources in App Store Connect's order and those it included.
    package struct Listing: Sendable {
        package var items: [ConnectListPage.Item] = []
        package var included: [ConnectListPage.Item] = []

        /// The included resource of `type` and `id`, if the list included it.
        package func included(_ type: String, _ id: String) -> ConnectListPage.Item? {
            included.first { $0.type == type && $0.id == id }
        }
    }

    /// The most pages read for one list.
    package static let pageLimit = 500
    /// The most bytes of answers read for one list (every price point of a product in every territory,
    /// about 140,000, is under a third of it).
    package static let byteLimit = 128 << 20

    let transport: ConnectTransport

    /// - Parameters:
    ///   - signer: makes the bearer tokens; `tokenLifetime` in seconds (at most 1200).
    ///   - observe: sees every request (method, path, status, time; never a token).
    package init(
        address: ConnectAPIAddress, signer: ConnectAPITokenSigner, tokenLifetime: Int = 600,
        settings: ConnectTransport.Settings = .init(), observe: @escaping @Sendable (ConnectExchange) -> Void = { _ in }
    ) {
        transport = ConnectTransport(
            address: address, tokens: ConnectTokenSource(signer: signer, lifetime: tokenLifetime), settings: settings,
            observe: observe)
    }

    /// A lister on the transport of a run (`codes apply`'s lookups after an unknown outcome).
    init(transport: ConnectTransport) { self.transport = transport }

    /// Every resource of the list at `path` (`/v1/apps`, …) with the query `query` (names and
    /// values as Apple documents them, unencoded), following `links.next` on the same base URL, at most
    /// ``pageLimit`` pages and ``byteLimit`` bytes.
    ///
    /// - Throws: ``NotFound`` on `404`; ``ConnectError/notAuthorized(status:detail:)`` on `401` or
    ///   `403`; ``ConnectError/unexpectedAnswer(request:what:)`` for any other answer that is not
    ///   a list; ``ConnectError/unreachable(reason:)`` when the retries run out.
    package func list(_ path: String, query: [(String, String)] = []) async throws -> Listing {
        var listing = Listing()
        var next: String? = path + Self.encode(query)
        var pages = 0
        var bytes = 0
        while let url = next {
            guard pages < Self.pageLimit else {
                throw ConnectError.unexpectedAnswer(
                    request: "GET \(path)", what: "more than \(Self.pageLimit) pages (links.next kept coming)")
            }
            pages += 1
            let answer = try await transport.get(url)
            bytes += answer.body.count
            guard bytes <= Self.byteLimit else {
                throw ConnectError.unexpectedAnswer(
                    request: "GET \(path)", what: "more than \(Self.byteLimit >> 20) MB of answers for one list")
            }
            if answer.status == 404 {
                let detail = AppleErrorDetail.parse(status: 404, body: answer.body).first?.summary ?? "404"
                throw NotFound(path: path, detail: detail)
            }
            guard answer.status == 200, let page = ConnectListPage(answer.body) else {
                let detail =
                    AppleErrorDetail.parse(status: answer.status, body: answer.body).first?.summary
                    ?? "\(answer.status), not a list of resources"
                throw ConnectError.unexpectedAnswer(request: "GET \(ConnectTransport.pathOnly(url))", what: detail)
            }
            listing.items += page.items
            listing.included += page.included
            next = nil
            if let link = page.next {
                // Apple's links name Apple's host: the next page is asked of the same base URL, and
                // the token goes nowhere else.
                guard let rebased = transport.address.rebase(link) else {
                    throw ConnectError.unexpectedAnswer(
                        request: "GET \(path)", what: "a links.next that is not a list URL of API 4.4.1")
                }
                next = rebased
            }
        }
        return listing
    }

    /// Closes the connections.
    package func shutdown() async { await transport.shutdown() }

    /// `?name=value&…`, percent-encoded (brackets too), or nothing for no parameters.
    static func encode(_ query: [(String, String)]) -> String {
        guard !query.isEmpty else { return "" }
        return "?"
            + query.map { name, value in percentEncode(name) + "=" + percentEncode(value) }.joined(separator: "&")
    }

    /// RFC 3986 unreserved characters and `,` pass; everything else is `%XX`.
    package static func percentEncode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: ","):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += (hex.count == 1 ? "%0" : "%") + hex
            }
        }
        return result
    }
}
