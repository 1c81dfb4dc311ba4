import Foundation
import OfferSigning
import Testing

@testable import CLITestSupport

/// Verifying a legacy promotional offer signature against a public key alone.
@Suite("offerkit verify, legacy signatures")
struct LegacyVerificationTests {
    @Test("legacy verification with --public-key needs only the key ID and bundle ID")
    func legacyVerifyWithPublicKeyOnly() async throws {
        let signature = try DemoKey.signer().sign(
            LegacyPromotionalOfferRequest(productId: Fixed.productId, offerIdentifier: Fixed.offerId),
            nonce: Fixed.nonceUUID, timestamp: Fixed.timestamp)
        let base = [
            "verify", "--legacy-signature", signature.signature, "--product-id", Fixed.productId, "--offer-id",
            Fixed.offerId, "--nonce", Fixed.nonce, "--timestamp", String(Fixed.timestamp), "--public-key",
            DemoKey.publicKeyPath, "--key-id", DemoKey.keyId,
        ]
        let good = try await CLI.run(base + ["--bundle-id", DemoKey.bundleId])
        Expect.success(good)
        Expect.noDemoWarning(good)
        let wrongBundle = try await CLI.run(base + ["--bundle-id", "com.example.other"])
        Expect.failure(wrongBundle, status: 1, mentioning: ["verification failed"])
    }
}
