import Foundation
import Testing

/// A compact JWS taken apart with Foundation alone (not the library's codecs), for checking
/// the claims of the service's tokens independently of ``JWSVerifier``.
struct DecodedToken {
    struct Claims: Decodable {
        var iss: String?
        var sub: String?
        var iat: Int64
        var exp: Int64
        var aud: String
        var bid: String?
        var scope: [String]?
    }

    let header: [String: String]
    let claims: Claims
    /// The payload's member names, in the order they appear.
    let claimNames: [String]

    init(_ compact: String) throws {
        let segments = compact.split(separator: ".", omittingEmptySubsequences: false)
        #expect(segments.count == 3)
        let header = try #require(segments.first.flatMap(Self.decode))
        let payload = try #require(segments.dropFirst().first.flatMap(Self.decode))
        self.header = try JSONDecoder().decode([String: String].self, from: header)
        self.claims = try JSONDecoder().decode(Claims.self, from: payload)
        let text = String(decoding: payload, as: UTF8.self)
        let object = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        let position = { (name: String) in text.range(of: "\"\(name)\":")?.lowerBound ?? text.endIndex }
        self.claimNames = object.keys.sorted { position($0) < position($1) }
    }

    /// base64url without padding, decoded with Foundation.
    private static func decode(_ segment: Substring) -> Data? {
        guard !segment.contains("="), !segment.contains("+"), !segment.contains("/") else { return nil }
        var text = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text)
    }
}
