import AppleTestChain
import Foundation
import OfferAppleVerification
import Testing

/// The chains a verifier remembers change no answer: every case gives, from a verifier that has
/// verified all the others before, exactly the error (or acceptance) a fresh verifier gives.
@Suite("Apple signed data: remembered chains refuse exactly as before")
struct VerifiedChainCacheTests {
    struct Settings: Hashable {
        var environment: String
        var bundleId: String?
        var appAppleId: Int64?
    }

    static func result(_ verifier: AppleSignedDataVerifier, _ testCase: AppleSignedCases.Case) async throws -> String {
        let kind = try #require(AppleSignedDataKind(rawValue: testCase.kind))
        do {
            let verified = try await verifier.verify(testCase.jws, as: kind)
            return "accept " + String(decoding: verified.payloadBytes, as: UTF8.self)
        } catch {
            return String(describing: error)
        }
    }

    @Test("every case of the test chain, twice, forwards and backwards, through warm verifiers: the cold answers")
    func warmEqualsCold() async throws {
        let cases = AppleSignedCases.loaded.cases
        var cold: [String] = []
        for testCase in cases {
            cold.append(try await Self.result(try AppleSignedCases.verifier(for: testCase), testCase))
        }
        var warm: [Settings: AppleSignedDataVerifier] = [:]
        for order in [Array(cases.indices), Array(cases.indices.reversed()), Array(cases.indices)] {
            for index in order {
                let testCase = cases[index]
                let settings = Settings(
                    environment: testCase.environment, bundleId: testCase.bundleId, appAppleId: testCase.appAppleId)
                let verifier = try warm[settings] ?? AppleSignedCases.verifier(for: testCase)
                warm[settings] = verifier
                #expect(try await Self.result(verifier, testCase) == cold[index], "\(testCase.name)")
            }
        }
        #expect(warm.values.contains { $0.rememberedChains > 0 }, "no chain was remembered: the test proves nothing")
        #expect(cold.contains { $0.hasPrefix("accept") } && cold.contains { !$0.hasPrefix("accept") })
    }

    @Test("a remembered chain at a date its root is no longer valid: refused as a fresh verifier refuses it")
    func outsideTheWindow() async throws {
        let chain = try AppleTestChain(rootValidUntil: Date(timeIntervalSince1970: 1_893_456_000))  // 2030-01-01
        func jws(_ signedDate: Int64, _ variant: AppleTestChain.Variant = .good) throws -> String {
            try chain.sign(RealtimeRequestPayload(signedDate: signedDate).json, variant: variant)
        }
        func verifier() throws -> AppleSignedDataVerifier {
            try AppleSignedDataVerifier(rootCertificates: [chain.root], bundleId: nil, environment: .sandbox)
        }
        let in2026: Int64 = 1_772_366_400_000
        let in2031: Int64 = 1_924_992_000_000
        let warm = try verifier()
        _ = try await warm.verifyRealtimeRequest(try jws(in2026))
        #expect(warm.rememberedChains == 1)
        _ = try await warm.verifyRealtimeRequest(try jws(in2026 + 1000))
        #expect(warm.rememberedChains == 1, "the same chain again is the same entry")
        for (date, variant) in [(in2031, AppleTestChain.Variant.good), (in2026, .badSignature), (in2026, .wrongRoot)] {
            let late = try jws(date, variant)
            var coldError: AppleVerificationError?
            var warmError: AppleVerificationError?
            let cold = try verifier()
            do { _ = try await cold.verifyRealtimeRequest(late) } catch { coldError = error }
            do { _ = try await warm.verifyRealtimeRequest(late) } catch { warmError = error }
            #expect(
                coldError != nil && warmError == coldError,
                "\(variant): cold \(String(describing: coldError)), warm \(String(describing: warmError))")
        }
    }
}
