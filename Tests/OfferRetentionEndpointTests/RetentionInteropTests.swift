import AppleTestChain
import Foundation
import InteropSupport
import OfferJSON
import OfferRetentionEndpoint
import Testing

/// The endpoint's answers and refusals, checked by independent tools
/// (`Tests/Interop/verify_retention_answers.py`): Apple's own `SignedDataVerifier` accepts and
/// refuses the same signed requests as the endpoint (except where a case says why not), every
/// answer reads with Apple's `RealtimeResponseBody` model to the same JSON, every V2 offer and
/// Advanced Commerce token verifies with PyJWT, every V1 signature with openssl.
@Suite("Get Retention Message: Apple's library, PyJWT and openssl agree")
struct RetentionInteropTests {
    static var available: Bool {
        get async {
            let python = await ExternalProcess.succeeds(
                InteropEnvironment.python, ["-c", "import appstoreserverlibrary, jwt"])
            let openssl = await ExternalProcess.succeeds("openssl", ["version"])
            return python && openssl
        }
    }

    static let reason = Comment(
        rawValue:
            "SKIPPED LOUDLY: \(InteropEnvironment.python) cannot import appstoreserverlibrary and jwt, or openssl "
            + "is missing, so the endpoint's answers are not checked by Apple's library, PyJWT and openssl here "
            + "(run .ci/run, or set OFFERKIT_PYTHON to the interop venv; CI never skips this)")

    struct Case: Encodable {
        var name: String
        var signedPayload: String
        /// The environment and App Apple ID Apple's verifier is made for.
        var environment: String
        var appAppleId: Int64
        var originalTransactionId = "2000000900000001"
        /// The endpoint's 200 body; `nil` when it refused (401).
        var answer: String?
        /// Why Apple's library answers otherwise, when it does.
        var appleDiffers: String?
    }

    struct Document: Encodable {
        var rootPEM: String
        var bundleId: String
        var keyId: String
        var cases: [Case]
    }

    struct Verdict: Decodable {
        var name: String
        var appleAccepted: Bool
        var appleStatus: String
        var kind: String?
        var problems: [String]
    }

    static func jws(_ body: [UInt8]) -> String {
        RealtimeRequestBody.signedPayload(in: body) ?? ""
    }

    static func makeCases() async throws -> [Case] {
        let both = try RetentionFixtures.responder(
            settings: RetentionFixtures.settings(environments: [.sandbox, .production]))
        let sandboxOnly = try RetentionFixtures.responder()
        func run(
            _ name: String, _ body: [UInt8], responder: RetentionResponder, environment: String = "Sandbox",
            appAppleId: Int64 = RetentionExample.appAppleId, appleDiffers: String? = nil
        ) async -> Case {
            var answer: String?
            if case .answered(let answered) = await responder.respond(to: body) {
                answer = String(decoding: answered.body, as: UTF8.self)
            }
            return Case(
                name: name, signedPayload: jws(body), environment: environment, appAppleId: appAppleId, answer: answer,
                appleDiffers: appleDiffers)
        }
        var cases: [Case] = []
        for (productId, userLocale, kind) in RetentionExample.requests {
            let body = try RetentionFixtures.body(productId: productId, userLocale: userLocale)
            cases.append(await run("\(kind) \(productId) \(userLocale)", body, responder: both))
        }
        let token = UUID(uuidString: "E3B1C9A2-5D4F-4A6B-8C7D-9E0F1A2B3C4D")!
        let withToken = try RetentionFixtures.responder(
            decider: RetentionDeciderTests.FixedDecider(
                decision: .promotionalOffer(
                    messageIdentifier: RetentionExample.offerMessage, productId: "com.example.offerkit.monthly",
                    offerIdentifier: "WINBACK50", signature: .v1, appAccountToken: token)))
        cases.append(
            await run("V1 with a decider's appAccountToken", try RetentionFixtures.body(), responder: withToken))
        let replayed = try RetentionFixtures.body()
        cases.append(await run("replay: first", replayed, responder: both))
        cases.append(await run("replay: again", replayed, responder: both))
        cases.append(
            await run(
                "production", try RetentionFixtures.body(environment: "Production"), responder: both,
                environment: "Production"))
        for variant in AppleTestChain.Variant.broken {
            cases.append(
                await run(
                    variant.rawValue, try RetentionFixtures.body(variant: variant), responder: both,
                    appleDiffers: variant.appleDiffers))
        }
        // The App Store signs with high-S signatures too: both answer it.
        cases.append(
            await run(
                "high-S", Array(AppleTestChain.body(AppleTestChain.highS(jws(try RetentionFixtures.body())))),
                responder: both))
        cases.append(
            await run(
                "another app in production", try RetentionFixtures.body(appAppleId: 42, environment: "Production"),
                responder: both, environment: "Production"))
        cases.append(
            await run(
                "another app in the sandbox", try RetentionFixtures.body(appAppleId: 42), responder: both,
                appleDiffers:
                    "Apple's library checks appAppleId in production only; the endpoint answers only the apps "
                    + "it serves, in every environment"))
        cases.append(
            await run(
                "production to a sandbox-only endpoint", try RetentionFixtures.body(environment: "Production"),
                responder: sandboxOnly))
        cases.append(
            await run("Xcode environment", try RetentionFixtures.body(environment: "Xcode"), responder: both))
        cases.append(
            await run(
                "stale", try RetentionFixtures.body(signedDate: RetentionFixtures.nowMilliseconds - 301_000),
                responder: both,
                appleDiffers: "Apple's library does not check how old a request is; the endpoint refuses one older "
                    + "than maxRequestAgeSeconds"))
        return cases
    }

    @Test(
        "Apple's verifier agrees on every case; every answer reads with Apple's models and its signatures verify",
        .enabled(reason) { await available || InteropEnvironment.isCI })
    func independentChecks() async throws {
        var cases = try await Self.makeCases()
        // Answers doctored here must be flagged: the checks are not vacuous.
        let v2 = try #require(cases.first?.answer)
        let doctored = [
            "{\"promotionalOffer\":" + v2.dropFirst("{\"promotionalOffer\":".count).dropLast() + ",\"extra\":1}",
            "{\"message\":{\"messageIdentifier\":\"\(RetentionExample.plainMessage)\"},\"alternateProduct\":{}}",
            v2.replacingOccurrences(
                of: "promotionalOfferSignatureV2\":\"ey", with: "promotionalOfferSignatureV2\":\"ex"),
        ]
        for (index, answer) in doctored.enumerated() {
            var testCase = cases[0]
            testCase.name = "doctored \(index)"
            testCase.answer = answer
            cases.append(testCase)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("offerkit-retention-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cases.json")
        let encoder = JSONEncoder()
        try encoder.encode(
            Document(
                rootPEM: AppleTestChain.shared.rootPEM, bundleId: RetentionExample.bundleId,
                keyId: RetentionFixtures.keyId, cases: cases)
        ).write(to: file)
        let script = RetentionFixtures.packageRoot.appendingPathComponent("Tests/Interop/verify_retention_answers.py")
        let result = try await ExternalProcess.run(
            InteropEnvironment.python, [script.path, file.path, RetentionFixtures.publicKeyFile])
        try #require(result.status == 0, "the checks did not run:\n\(result.stderr)")
        let verdicts = try result.stdout.split(separator: "\n").map {
            try JSONDecoder().decode(Verdict.self, from: Data($0.utf8))
        }
        #expect(verdicts.map(\.name) == cases.map(\.name))
        for (testCase, verdict) in zip(cases, verdicts) {
            if testCase.name.hasPrefix("doctored") {
                #expect(!verdict.problems.isEmpty, "\(testCase.name) was not flagged")
                continue
            }
            let accepted = testCase.answer != nil
            if testCase.appleDiffers != nil {
                #expect(accepted != verdict.appleAccepted, "\(testCase.name): documented as differing, but both agree")
            } else {
                let apple = verdict.appleAccepted ? "accepts" : "refuses (\(verdict.appleStatus))"
                #expect(
                    accepted == verdict.appleAccepted,
                    "\(testCase.name): the endpoint \(accepted ? "answers" : "refuses"), Apple's verifier \(apple)")
            }
            #expect(verdict.problems.isEmpty, "\(testCase.name): \(verdict.problems)")
        }
        let kinds = Set(verdicts.compactMap(\.kind))
        #expect(
            kinds == [
                "promotionalOffer-v2", "promotionalOffer-v1", "alternateProduct", "advancedCommerceInfo", "message",
                "default",
            ], "\(kinds)")
        let tokenAnswer = cases.first { $0.name == "V1 with a decider's appAccountToken" }?.answer
        #expect(tokenAnswer?.contains("\"appAccountToken\":\"e3b1c9a2-5d4f-4a6b-8c7d-9e0f1a2b3c4d\"") == true)
        let replays = cases.filter { $0.name.hasPrefix("replay") }.map(\.answer)
        #expect(replays.count == 2 && replays[0] != nil && replays[0] == replays[1])
        // Both accept some and refuse others: the comparison is not vacuous.
        #expect(verdicts.contains { $0.appleAccepted } && verdicts.contains { !$0.appleAccepted })
    }
}
