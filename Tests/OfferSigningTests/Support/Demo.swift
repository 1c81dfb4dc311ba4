import Foundation
import OfferSigning

/// The demo key and identifiers from `keys-example/`, shared by the tests.
enum Demo {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let keyId = "DEMOKEY123"
    static let issuerId = "98802e6e-bab8-4f06-8c88-a2582cda3c9c"
    static let bundleId = "com.example.offerkit.demo"
    static let keyPath = packageRoot.appendingPathComponent("keys-example/SubscriptionKey_DEMOKEY123.p8").path
    static let publicKeyPath = packageRoot.appendingPathComponent("keys-example/SubscriptionKey_DEMOKEY123.pub.pem")
        .path
    static let fixtures = packageRoot.appendingPathComponent("Tests/OfferSigningTests/Fixtures")

    static let key: SigningKey = {
        do {
            return try SigningKey(contentsOfFile: keyPath, keyId: keyId)
        } catch {
            fatalError("demo key in keys-example/ does not load: \(error)")
        }
    }()

    static func signer(clock: SigningClock = .system, nonces: NonceGenerator = .random) throws -> OfferSigner {
        try OfferSigner(key: key, issuerId: issuerId, bundleId: bundleId, clock: clock, nonces: nonces)
    }

    static var privateKeyPEM: String { (try? String(contentsOfFile: keyPath, encoding: .utf8)) ?? "" }
}
