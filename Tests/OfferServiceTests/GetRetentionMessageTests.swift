import AppleTestChain
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import OfferAppleVerification
import OfferJSON
import OfferRetentionEndpoint
import OfferSigning
import Testing

@testable import OfferService

@Suite("Get Retention Message: the endpoint over HTTP")
struct GetRetentionMessageTests {
    typealias F = RetentionServiceFixtures

    /// The one member of an answer and its JWS, when it has one.
    static func member(_ response: ServiceResponse) -> String? {
        guard case .object(let members)? = response.json, members.count == 1 else { return nil }
        return members[0].key
    }

    @Test("each decision kind is answered 200 application/json, no API key needed, the offer signed for this customer")
    func eachKind() async throws {
        let app = ServiceFixtures.application(try F.service())
        try await app.test(.router) { client in
            for (productId, userLocale, kind) in RetentionExample.requests {
                let response = try await client.call(
                    .post, F.path, body: try F.body(productId: productId, userLocale: userLocale))
                #expect(response.status == 200, "\(kind): \(response.text)")
                #expect(response.headers[.contentType] == "application/json")
                #expect(response.headers[.cacheControl] == "no-store")
                #expect((Self.member(response) ?? "default") == kind, "\(response.text)")
                if kind == "promotionalOffer",
                    case .string(let jws)? = response.json?["promotionalOffer"]?["promotionalOfferSignatureV2"]
                {
                    let verified = try JWSVerifier(publicKeyPEM: ServiceFixtures.publicKeyPEM).verify(
                        jws, as: .promotionalOffer)
                    #expect(verified.claims.transactionId == "2000000900000001")
                    #expect(verified.claims.bid == ServiceFixtures.app)
                }
            }
            // The exact bytes: no trailing newline, nothing added.
            let empty = try await client.call(
                .post, F.path, body: try F.body(productId: "com.example.offerkit.weekly", userLocale: "en-US"))
            #expect(empty.text == "{}")
        }
    }

    @Test("every broken chain or signature is 401 unverified-request, the same words each time")
    func brokenVariants() async throws {
        let app = ServiceFixtures.application(try F.service())
        try await app.test(.router) { client in
            var details = Set<String>()
            for variant in AppleTestChain.Variant.broken {
                let response = try await client.call(.post, F.path, body: try F.body(variant: variant))
                #expect(response.status == 401, "\(variant): \(response.text)")
                #expect(response.problemSlug == "unverified-request")
                #expect(response.headers[.wwwAuthenticate] == nil)
                details.insert(response.string("detail") ?? "")
            }
            #expect(details.count == 1, "nothing about why: \(details)")
        }
    }

    @Test("another app's App Apple ID, another environment, a stale or future signedDate, a malformed body: 401")
    func otherAppEnvironmentOrTime() async throws {
        let app = ServiceFixtures.application(try F.service())
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try await app.test(.router) { client in
            for body in [
                try F.body(appAppleId: 42), try F.body(environment: "Production"),
                // An hour either way: far past the 300 s and 60 s bounds however long a busy run waits.
                try F.body(signedDate: now - 3_600_000),
                try F.body(signedDate: now + 3_600_000), #"{"signedPayload": 7}"#, "{}", "not json", "",
            ] {
                let response = try await client.call(.post, F.path, body: body)
                #expect(response.status == 401 && response.problemSlug == "unverified-request", "\(response.text)")
            }
        }
    }

    @Test("the same request again gets the same bytes; another payload under its requestIdentifier is answered afresh")
    func replay() async throws {
        let app = ServiceFixtures.application(try F.service())
        try await app.test(.router) { client in
            let id = UUID()
            let body = try F.body(requestIdentifier: id)
            let first = try await client.call(.post, F.path, body: body)
            let second = try await client.call(.post, F.path, body: body)
            #expect(first.status == 200 && first.text == second.text)
            let other = try await client.call(
                .post, F.path, body: try F.body(productId: "com.example.offerkit.yearly", requestIdentifier: id))
            #expect(Self.member(other) == "alternateProduct")
        }
    }

    @Test("the body is read whatever its Content-Type; over 64 KiB it is 413 before it is read")
    func bodyRules() async throws {
        let app = ServiceFixtures.application(try F.service())
        try await app.test(.router) { client in
            for contentType in ["application/json", "text/plain", nil] as [String?] {
                let response = try await client.call(.post, F.path, body: try F.body(), contentType: contentType)
                #expect(response.status == 200, "\(contentType ?? "none"): \(response.text)")
            }
            let large = String(repeating: " ", count: RealtimeRequestBody.maximumBytes + 1)
            let tooLarge = try await client.call(.post, F.path, body: large)
            #expect(tooLarge.status == 413 && tooLarge.problemSlug == "body-too-large")
            let methods = try await client.call(.get, F.path)
            #expect(methods.status == 405 && methods.headers[.allow] == "POST")
        }
    }

    /// The served document describes the answer for clients; ``RealtimeAnswer`` writes it. Every kind
    /// the model writes validates (jsonschema, Draft 2020-12) against the document's
    /// `RealtimeResponseBody`, so that the description cannot drift from what is sent.
    @Test(
        "every answer RealtimeAnswer writes validates against the served document's RealtimeResponseBody",
        .enabled(OpenAPIPython.reason) { await OpenAPIPython.shouldRun })
    func documentedAnswerIsTheWrittenOne() async throws {
        let app = ServiceFixtures.application(try F.service())
        let document = try await app.test(.router) { client in
            try #require(try await client.call(.get, "/openapi.json").json)
        }
        let message = UUID()
        let answers: [RealtimeAnswer] = [
            .message(messageIdentifier: message),
            .alternateProduct(messageIdentifier: message, productId: "com.example.yearly", billingPlanType: "MONTHLY"),
            .promotionalOfferV2(messageIdentifier: message, jws: "eyJhbGciOiJFUzI1NiJ9.eyJ4IjoxfQ.c2ln"),
            .promotionalOfferV1(
                messageIdentifier: message,
                signature: LegacyPromotionalOfferSignature(
                    keyId: "DEMOKEY123", nonce: UUID(), timestamp: 1_800_000_000_000, signature: "MEUCIQ==",
                    productId: "com.example.monthly", offerIdentifier: "comeback",
                    appAccountToken: UUID().uuidString.lowercased())),
            .advancedCommerceInfo(messageIdentifier: message, advancedCommerceData: Array("{}".utf8)),
            .default,
        ]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("answers-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(document.serialized()).write(to: folder.appendingPathComponent("openapi.json"))
        let bodies = answers.map { String(decoding: $0.body, as: UTF8.self) }
        try Data(("[" + bodies.joined(separator: ",") + "]").utf8).write(
            to: folder.appendingPathComponent("answers.json"))
        let script = """
            import json, sys, jsonschema
            document = json.load(open(sys.argv[1]))
            schema = {"$ref": "#/components/schemas/RealtimeResponseBody", "components": document["components"]}
            validator = jsonschema.Draft202012Validator(schema)
            errors = [f"{index}: {error.message}" for index, answer in enumerate(json.load(open(sys.argv[2])))
                      for error in validator.iter_errors(answer)]
            print("\\n".join(errors) if errors else "all valid")
            """
        let result = try await OpenAPIPython.run([
            "-c", script, folder.appendingPathComponent("openapi.json").path,
            folder.appendingPathComponent("answers.json").path,
        ])
        #expect(result.status == 0 && result.stdout.contains("all valid"), "\(result)\n\(bodies)")
    }

    @Test("without a retention section the path is not served, and the served document leaves it out")
    func absentWithoutConfiguration() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let response = try await client.call(.post, F.path, body: try F.body())
            #expect(response.status == 404 && response.problemSlug == "not-found")
            let document = try #require(try await client.call(.get, "/openapi.json").json)
            #expect(document["paths"]?[F.path] == nil)
            #expect(document["components"]?["schemas"]?["RealtimeResponseBody"] == nil)
        }
    }

    @Test("a configured path is where it is served and what the served document says")
    func configuredPath() async throws {
        let custom = "/apple/retention-message"
        let app = ServiceFixtures.application(try F.service(path: custom))
        try await app.test(.router) { client in
            #expect(try await client.call(.post, custom, body: try F.body()).status == 200)
            #expect(try await client.call(.post, F.path, body: try F.body()).status == 404)
            let document = try #require(try await client.call(.get, "/openapi.json").json)
            let operation = document["paths"]?[custom]?["post"]
            #expect(operation?["operationId"] == .string("getRetentionMessage"))
            #expect(operation?["security"] == .array([]))
            #expect(operation?["x-offerkit-requires-retention"] == .bool(true))
        }
    }

    @Test("metrics: decisions by kind, rejections by reason, a latency histogram")
    func metrics() async throws {
        let metrics = ServiceMetrics()
        let app = ServiceFixtures.application(try F.service(metrics: metrics))
        try await app.test(.router) { client in
            _ = try await client.call(.post, F.path, body: try F.body())
            _ = try await client.call(.post, F.path, body: try F.body(productId: "unknown"))
            _ = try await client.call(.post, F.path, body: try F.body(variant: .wrongRoot))
            _ = try await client.call(.post, F.path, body: try F.body(appAppleId: 42))
            _ = try await client.call(.post, F.path, body: "{}")
        }
        let text = metrics.exposition()
        for line in [
            #"offerkit_retention_decisions_total{kind="promotionalOffer"} 1"#,
            #"offerkit_retention_decisions_total{kind="default"} 1"#,
            #"offerkit_retention_rejections_total{reason="untrustedChain"} 1"#,
            #"offerkit_retention_rejections_total{reason="unknownApp"} 1"#,
            #"offerkit_retention_rejections_total{reason="malformedBody"} 1"#,
            "offerkit_retention_duration_seconds_count 5",
            #"offerkit_problems_total{type="unverified-request"} 3"#,
        ] {
            #expect(text.contains(line), "\(line)\n\(text)")
        }
    }

    @Test("one log line per request: the requestIdentifier once verified; before, only the reason, never the payload")
    func logLines() async throws {
        let records = LogRecords()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(records: records) }
        let service = try F.service()
        let id = UUID()
        let forged = try F.body(requestIdentifier: id, variant: .signedByAnotherKey)
        try await service.testApplication(operations: service.routedOperations, logger: logger).test(.router) {
            client in
            _ = try await client.call(
                .post, F.path, body: try F.body(requestIdentifier: id), headers: [RequestHeader.requestId: "ok-1"])
            _ = try await client.call(.post, F.path, body: forged, headers: [RequestHeader.requestId: "forged-1"])
        }
        let lines = records.all.filter { $0.message == "request" }
        let ok = try #require(lines.first { $0.metadata["request.id"] == "ok-1" })
        #expect(ok.metadata["retention.requestIdentifier"] == id.uuidString.lowercased())
        #expect(ok.metadata["retention.decision"] == "promotionalOffer")
        #expect(ok.metadata["retention.app"] == ServiceFixtures.app)
        #expect(ok.metadata["operation"] == "getRetentionMessage")
        let refused = try #require(lines.first { $0.metadata["request.id"] == "forged-1" })
        #expect(refused.metadata["retention.rejection"] == "signatureInvalid")
        #expect(refused.metadata["retention.requestIdentifier"] == nil)
        let infoLines = records.all.filter { $0.metadata["request.id"] == "forged-1" && $0.level >= .info }
        #expect(infoLines.count == 1, "one line (the problem middleware's debug line aside)")
        let everything = records.all.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        let payloadPart = String(forged.split(separator: ".")[1].prefix(40))
        #expect(!everything.contains(payloadPart) && !everything.contains("2000000900000001"), "no payload in logs")
    }

    struct Fixed: RetentionDecider {
        let decision: RetentionDecision
        func decide(for request: DecodedRealtimeRequestBody, bundleId: String) async throws -> RetentionDecision {
            decision
        }
    }

    struct Throwing: RetentionDecider {
        struct Failure: Error {}
        func decide(for request: DecodedRealtimeRequestBody, bundleId: String) async throws -> RetentionDecision {
            throw Failure()
        }
    }

    @Test("the decider's time budget is the service's to set: more than 0 and at most 60 s")
    func deciderTimeBudget() throws {
        let decider = Fixed(decision: .default)
        for budget in [Duration.zero, .seconds(61)] {
            #expect(throws: ConfigurationError.self, "\(budget)") {
                try OfferService(
                    configuration: F.configuration(), retentionDecider: decider, retentionDeciderTimeBudget: budget)
            }
        }
        _ = try OfferService(
            configuration: F.configuration(), retentionDecider: decider, retentionDeciderTimeBudget: .milliseconds(650))
        // Named as the caller wrote it, with the value; also refused without a retention section.
        for configuration in [F.configuration(), ServiceFixtures.configuration] {
            do {
                _ = try OfferService(configuration: configuration, retentionDeciderTimeBudget: .seconds(61))
                Issue.record("61 s accepted")
            } catch {
                let message = error.errorDescription ?? ""
                #expect(message.contains("retentionDeciderTimeBudget") && message.contains("61"), "\(message)")
            }
        }
    }

    @Test("the hook: a service's own decider decides; one that throws gets {}, a warning and hookFailed")
    func hook() async throws {
        let message = RetentionDecision.message(messageIdentifier: RetentionExample.switchMessage)
        let custom = ServiceFixtures.application(try F.service(decider: Fixed(decision: message)))
        try await custom.test(.router) { client in
            let response = try await client.call(.post, F.path, body: try F.body(productId: "anything"))
            #expect(
                response.json?["message"]?["messageIdentifier"]
                    == .string(RetentionExample.switchMessage.uuidString.lowercased()))
        }
        let records = LogRecords()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(records: records) }
        let metrics = ServiceMetrics()
        let failing = try F.service(decider: Throwing(), metrics: metrics)
        try await failing.testApplication(operations: failing.routedOperations, logger: logger).test(.router) {
            client in
            let response = try await client.call(.post, F.path, body: try F.body())
            #expect(response.status == 200 && response.text == "{}")
        }
        #expect(metrics.exposition().contains(#"offerkit_retention_decisions_total{kind="hookFailed"} 1"#))
        let warning = try #require(records.all.first { $0.level == .warning })
        #expect(
            warning.metadata["retention.failure"]?.contains("Throwing.Failure") == true, "\(warning.metadata)")
    }
}
