import Foundation
import Testing

@testable import OfferSigning

/// One shared signer and verifier used from many tasks at once: every signature verifies and no
/// nonce repeats. (No timing assertions.)
@Suite("Concurrency")
struct ConcurrencyTests {
    static let taskCount = 8
    static let signaturesPerTask = 200

    private struct Signed: Sendable {
        let compact: String
        let nonce: UUID?
        let kind: JWSKind
    }

    @Test func sharedSignerFromConcurrentTasks() async throws {
        let signer = try Demo.signer()  // random nonces, system clock
        let verifier = TestJWS.verifier

        let results = try await withThrowingTaskGroup(of: [Signed].self) { group in
            for task in 0..<Self.taskCount {
                group.addTask {
                    var signed: [Signed] = []
                    signed.reserveCapacity(Self.signaturesPerTask)
                    for index in 0..<Self.signaturesPerTask {
                        let jws: CompactJWS
                        let kind: JWSKind
                        switch (task + index) % 3 {
                        case 0:
                            kind = .promotionalOffer
                            jws = try signer.sign(
                                PromotionalOfferRequest(
                                    productId: "com.example.task\(task)", offerIdentifier: "OFFER\(index)",
                                    transactionId: "\(task * 1000 + index)"))
                        case 1:
                            kind = .introductoryOfferEligibility
                            jws = try signer.sign(
                                IntroductoryOfferEligibilityRequest(
                                    productId: "com.example.task\(task)", allowIntroductoryOffer: index % 2 == 0,
                                    transactionId: "\(index)"))
                        default:
                            kind = .advancedCommerce
                            jws = try signer.sign(
                                AdvancedCommerce.InAppRequest.reactivateSubscription(
                                    .init(
                                        requestInfo: .init(requestReferenceId: NonceGenerator.random.next()),
                                        transactionId: "\(task)-\(index)")))
                        }
                        // Verify inside the task too, so the verifier is also shared concurrently.
                        let verified = try verifier.verify(jws.serialization, as: kind)
                        guard verified.claims.nonce == jws.nonce?.uuidString.lowercased() else {
                            throw VerificationError.invalidClaim(field: "nonce", expected: "the nonce that was signed")
                        }
                        signed.append(Signed(compact: jws.serialization, nonce: jws.nonce, kind: kind))
                    }
                    return signed
                }
            }
            var all: [Signed] = []
            for try await batch in group { all.append(contentsOf: batch) }
            return all
        }

        #expect(results.count == Self.taskCount * Self.signaturesPerTask)
        var nonces = Set<String>()
        for result in results {
            let verified = try verifier.verify(result.compact, as: result.kind)
            let nonce = try #require(verified.claims.nonce)
            #expect(result.nonce?.uuidString.lowercased() == nonce)
            nonces.insert(nonce)
        }
        #expect(nonces.count == results.count, "all nonces distinct")
        #expect(Set(results.map(\.compact)).count == results.count)
    }

    @Test func sharedSignerLegacyAndTokensFromConcurrentTasks() async throws {
        let signer = try Demo.signer()
        let connect = try ConnectAPITokenSigner(key: Demo.key, issuer: .team(issuerId: Demo.issuerId))
        let verifier = TestJWS.verifier

        let nonces = try await withThrowingTaskGroup(of: [UUID].self) { group in
            for task in 0..<Self.taskCount {
                group.addTask {
                    var seen: [UUID] = []
                    for index in 0..<50 {
                        let signature = try signer.sign(
                            LegacyPromotionalOfferRequest(
                                productId: "p\(task)", offerIdentifier: "o\(index)",
                                appAccountToken: UUID().uuidString))
                        try verifier.verify(signature, bundleId: Demo.bundleId)
                        seen.append(signature.nonce)
                        _ = try verifier.verify(try signer.serverAPIToken().token, as: .serverAPIToken)
                        _ = try verifier.verify(try connect.token(scope: ["GET /v1/apps"]).token, as: .connectAPIToken)
                    }
                    return seen
                }
            }
            var all: [UUID] = []
            for try await batch in group { all.append(contentsOf: batch) }
            return all
        }
        #expect(nonces.count == Self.taskCount * 50)
        #expect(Set(nonces).count == nonces.count)
    }

    @Test func randomNonceGeneratorFromConcurrentTasks() async {
        let all = await withTaskGroup(of: [UUID].self) { group in
            for _ in 0..<Self.taskCount {
                group.addTask { (0..<1000).map { _ in NonceGenerator.random.next() } }
            }
            var all: [UUID] = []
            for await batch in group { all.append(contentsOf: batch) }
            return all
        }
        #expect(Set(all).count == all.count)
        for uuid in all.prefix(200) {
            let text = uuid.uuidString.lowercased()
            let characters = Array(text)
            #expect(characters[14] == "4")
            #expect("89ab".contains(characters[19]))
        }
    }
}
