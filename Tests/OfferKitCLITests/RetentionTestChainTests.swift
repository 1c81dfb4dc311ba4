import Foundation
import OfferAppleVerification
import OfferJSON
import OfferRetentionEndpointTesting
import Testing

/// `RetentionTestChain.sign`: the header segment, encoded once when the chain is made or read, is
/// the chain's `x5c` header, and what it signs verifies as a real-time request to the chain's root.
@Suite("RetentionTestChain: signing with the header encoded once")
struct RetentionTestChainTests {
    static func request() -> DecodedRealtimeRequestBody {
        DecodedRealtimeRequestBody(
            originalTransactionId: "2000000900000001", appAppleId: 1_234_567_890,
            productId: "com.example.offerkit.monthly", userLocale: "en-US", requestIdentifier: UUID(),
            signedDate: RealtimeRequestSigner.now(), environment: "Sandbox")
    }

    @Test("each JWS carries the chain's header; a chain read back from its folder signs the same; all verify")
    func headerEncodedOnce() async throws {
        let chain = try RetentionTestChain()
        let header = Base64.urlString(try RetentionTestChain.header(alg: "ES256", x5c: chain.certificates))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chain-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try chain.write(to: folder)
        let read = try RetentionTestChain(folder: folder)
        let verifier = try AppleSignedDataVerifier(
            rootCertificates: [chain.root], bundleId: nil, environment: .sandbox)
        for signer in [RealtimeRequestSigner(chain: chain), RealtimeRequestSigner(chain: read)] {
            for _ in 0..<3 {
                let request = Self.request()
                let jws = try signer.signedPayload(for: request)
                #expect(jws.split(separator: ".").first.map(String.init) == header, "\(jws.prefix(80))")
                let verified = try await verifier.verifyRealtimeRequest(jws)
                #expect(verified.requestIdentifier == request.requestIdentifier)
            }
        }
    }
}
