import Crypto
import Foundation
import OfferSigning

/// What the targets share: the demo key from `keys-example/` (public, never accepted by Apple),
/// a signer and a verifier for it, all loaded once.
enum FuzzFixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let keyId = "DEMOKEY123"
    static let issuerId = "98802e6e-bab8-4f06-8c88-a2582cda3c9c"
    static let bundleId = "com.example.offerkit.demo"
    /// 2026-01-01T00:00:00Z: signing reads this clock, so that a result depends on the input only
    /// (and the random nonce, when the input gives none).
    static let now = Date(timeIntervalSince1970: 1_767_225_600)

    static let keyPath = packageRoot.appendingPathComponent("keys-example/SubscriptionKey_DEMOKEY123.p8").path

    static let key: SigningKey = {
        do {
            return try SigningKey(contentsOfFile: keyPath, keyId: keyId)
        } catch {
            fatalError("the demo key \(keyPath) does not load: \(error)")
        }
    }()

    /// The demo key as swift-crypto reads it, for signing what OfferKit would refuse to sign.
    static let privateKey: P256.Signing.PrivateKey = {
        do {
            return try P256.Signing.PrivateKey(pemRepresentation: String(contentsOfFile: keyPath, encoding: .utf8))
        } catch {
            fatalError("the demo key \(keyPath) does not load: \(error)")
        }
    }()

    static let signer: OfferSigner = {
        do {
            return try OfferSigner(key: key, issuerId: issuerId, bundleId: bundleId, clock: .fixed(now))
        } catch {
            fatalError("the demo signer does not build: \(error)")
        }
    }()

    static let verifier = JWSVerifier(key: key)
}
