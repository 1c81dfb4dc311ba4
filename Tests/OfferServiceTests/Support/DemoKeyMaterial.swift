import Foundation

/// The demo key's secret, in the forms a leak would take: each PEM line, the joined PEM body,
/// and the raw private scalar as hex, base64 and base64url.
enum DemoKeyMaterial {
    static let pemLines: [String] = {
        guard let pem = try? String(contentsOfFile: ServiceFixtures.keyFile, encoding: .utf8) else {
            fatalError("keys-example/SubscriptionKey_DEMOKEY123.p8 is missing")
        }
        return pem.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("-----") }
    }()

    /// The private scalar `d`: the 32 bytes after `02 01 01 04 20` (ECPrivateKey version 1, OCTET
    /// STRING of 32 bytes) in the PKCS#8 DER.
    static let scalar: [UInt8] = {
        guard let der = Data(base64Encoded: pemLines.joined()) else { fatalError("the demo key's PEM is not base64") }
        let bytes = [UInt8](der)
        let marker: [UInt8] = [0x02, 0x01, 0x01, 0x04, 0x20]
        guard let start = (0...(bytes.count - marker.count - 32)).first(where: { Array(bytes[$0..<$0 + 5]) == marker })
        else { fatalError("the demo key has no ECPrivateKey scalar") }
        return Array(bytes[start + 5..<start + 37])
    }()

    static let forms: [String] = {
        let hex = scalar.map { String(format: "%02x", $0) }.joined()
        let base64 = Data(scalar).base64EncodedString()
        return pemLines + [
            pemLines.joined(), hex, hex.uppercased(), base64, String(base64.prefix(40)),
            String(base64URL(scalar).prefix(40)),
        ]
    }()

    /// Base64url without padding (RFC 4648 section 5), as a JWK would hold the scalar.
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The first form of key material found in `text`, or `nil`.
    static func leaks(in text: String) -> String? {
        forms.first { text.contains($0) }
    }
}
