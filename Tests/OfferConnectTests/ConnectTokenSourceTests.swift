import Foundation
import OfferSigning
import Testing

@testable import OfferConnect

/// When `codes apply` makes a new bearer token: a token is never used in the last quarter of its lifetime.
@Suite("App Store Connect: bearer token renewal")
struct ConnectTokenSourceTests {
    static let signer: ConnectAPITokenSigner = {
        do {
            return try ConnectAPITokenSigner(
                key: try SigningKey.generate(keyId: "RENEWAL123"),
                issuer: .team(issuerId: "98802e6e-bab8-4f06-8c88-a2582cda3c9c"))
        } catch {
            fatalError("cannot make a signer: \(error)")
        }
    }()

    /// A token's `iat` is whole seconds, rounded down, so a token made at x.9 s expires 0.9 s sooner than
    /// "made + lifetime": the renewal counts from its `exp`, not from when it was made.
    @Test func aTokenIsRenewedAQuarterOfItsLifetimeBeforeItsExp() throws {
        let source = ConnectTokenSource(signer: Self.signer, lifetime: 2)
        let made = Date(timeIntervalSince1970: 1_800_000_000.9)  // iat 1_800_000_000, exp 1_800_000_002
        let first = try source.token(now: made)
        #expect(try source.token(now: Date(timeIntervalSince1970: 1_800_000_001.4)) == first, "0.6 s left of 2")
        let renewed = try source.token(now: Date(timeIntervalSince1970: 1_800_000_001.6))
        #expect(renewed != first, "0.4 s left of 2: less than a quarter")
        #expect(try source.token(now: Date(timeIntervalSince1970: 1_800_000_002.4)) == renewed, "exp …003, 0.6 s left")
    }

    @Test(arguments: [600, 1200, 37])
    func everyTokenUsedHasAQuarterOfItsLifetimeLeft(lifetime: Int) throws {
        let source = ConnectTokenSource(signer: Self.signer, lifetime: lifetime)
        var expiries: [String: Int] = [:]
        var shortest = (left: Double.infinity, at: 0.0)
        // Asked every 0.1 s for three lifetimes, starting just before a whole second.
        let start = 1_800_000_000.95
        for step in 0..<(lifetime * 30) {
            let now = start + Double(step) / 10
            let token = try source.token(now: Date(timeIntervalSince1970: now))
            if expiries[token] == nil { expiries[token] = try Self.exp(of: token) }
            let left = Double(expiries[token] ?? 0) - now
            if left < shortest.left { shortest = (left, now) }
        }
        #expect(shortest.left >= Double(lifetime) / 4 - 1e-6, "a token with \(shortest.left) s left at \(shortest.at)")
        #expect(expiries.count >= 3)
    }

    /// The `exp` claim of a compact JWS.
    static func exp(of token: String) throws -> Int {
        var base64 = String(token.split(separator: ".")[1])
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let claims = try JSONSerialization.jsonObject(with: Data(base64Encoded: base64) ?? Data()) as? [String: Any]
        return try #require(claims?["exp"] as? Int)
    }
}
