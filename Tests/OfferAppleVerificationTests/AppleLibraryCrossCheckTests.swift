import Foundation
import InteropSupport
import Testing

/// Every case also goes through Apple's own verifier (`SignedDataVerifier` of Apple's
/// app-store-server-library from PyPI, online checks off, the test root as its root): both must
/// accept and refuse the same inputs, except where a case documents why not.
@Suite("Apple signed data: Apple's own Python library agrees")
struct AppleLibraryCrossCheckTests {
    static var available: Bool {
        get async { await ExternalProcess.succeeds(InteropEnvironment.python, ["-c", "import appstoreserverlibrary"]) }
    }

    static let reason = Comment(
        rawValue: "SKIPPED LOUDLY: \(InteropEnvironment.python) cannot import appstoreserverlibrary, so Apple's own "
            + "verifier is not compared here (run .ci/run, or pip install app-store-server-library and set "
            + "OFFERKIT_PYTHON; CI never skips this)")

    struct AppleAnswer: Decodable {
        var name: String
        var accepted: Bool
        var status: String
    }

    @Test(
        "OfferKit and Apple's SignedDataVerifier accept and refuse the same cases",
        .enabled(reason) { await available || InteropEnvironment.isCI })
    func sameAnswers() async throws {
        let script = AppleSignedCases.packageRoot.appendingPathComponent("Tests/Interop/verify_apple_signed.py").path
        let result = try await ExternalProcess.run(InteropEnvironment.python, [script, AppleSignedCases.path.path])
        try #require(result.status == 0, "Apple's library did not run:\n\(result.stderr)")
        let answers = try result.stdout.split(separator: "\n").map {
            try JSONDecoder().decode(AppleAnswer.self, from: Data($0.utf8))
        }
        let cases = AppleSignedCases.loaded.cases
        #expect(answers.map(\.name) == cases.map(\.name))
        var differences = 0
        for (testCase, answer) in zip(cases, answers) {
            let accepted = try await AppleSignedCases.outcome(of: testCase) == "accept"
            if testCase.appleDiffers != nil {
                differences += 1
                #expect(accepted != answer.accepted, "\(testCase.name): documented as differing, but both agree")
            } else {
                let apple = answer.accepted ? "accepts" : "refuses (\(answer.status))"
                #expect(
                    accepted == answer.accepted,
                    "\(testCase.name): OfferKit \(accepted ? "accepts" : "refuses"), Apple's library \(apple)")
            }
        }
        #expect(differences == 1)
        // Both libraries accept some cases and refuse others: the comparison is not vacuous.
        #expect(answers.contains { $0.accepted } && answers.contains { !$0.accepted })
    }
}
