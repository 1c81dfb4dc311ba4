import Crypto
import Foundation
import Testing

@testable import OfferSigning

/// The legacy signature's DER, written by OfferSigning from `r ‖ s`, must be byte for byte what
/// swift-crypto (BoringSSL) writes, and what it reads back.
@Suite("ECDSA signature DER")
struct ECDSADERTests {
    @Test("2,000 random signatures: the same bytes as swift-crypto's derRepresentation")
    func matchesSwiftCrypto() throws {
        let key = P256.Signing.PrivateKey()
        var padded = 0
        var shortened = 0
        for index in 0..<2_000 {
            let signature = try key.signature(for: Data("message \(index)".utf8))
            let raw = Array(signature.rawRepresentation)
            #expect(ECDSADER.encode(raw: raw) == Array(signature.derRepresentation))
            for half in [raw[0..<32], raw[32..<64]] {
                if half.first! & 0x80 != 0 { padded += 1 }
                if half.first! == 0 { shortened += 1 }
            }
        }
        // About half of the integers need a zero byte in front; about 1 in 256 loses one.
        #expect(padded > 1_500)
        #expect(shortened > 0)
    }

    @Test(
        "edge magnitudes: leading zero bytes, the high bit, the smallest integer",
        arguments: [
            [UInt8](repeating: 0, count: 31) + [1],
            [UInt8](repeating: 0, count: 32),
            [0x80] + [UInt8](repeating: 0, count: 31),
            [0x00, 0x80] + [UInt8](repeating: 0xFF, count: 30),
            [0x00, 0x7F] + [UInt8](repeating: 0xFF, count: 30),
            [UInt8](repeating: 0xFF, count: 32),
        ])
    func edges(r: [UInt8]) throws {
        let s: [UInt8] = [0x01] + [UInt8](repeating: 0x23, count: 31)
        let der = ECDSADER.encode(raw: r + s)
        let reference = try P256.Signing.ECDSASignature(rawRepresentation: r + s).derRepresentation
        #expect(der == Array(reference))
        let decoded = try P256.Signing.ECDSASignature(derRepresentation: der)
        #expect(Array(decoded.rawRepresentation) == r + s)
    }
}
