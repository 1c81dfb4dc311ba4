import Foundation
import HTTPTypes
import OfferKitClient
import OpenAPIRuntime
import Testing

/// The Swift client (clients/swift) against a live `offerkit serve` (``LiveService``): every operation of
/// openapi.json called through its generated, typed methods; each JWS verified with PyJWT and cryptography and
/// each legacy signature with openssl; one problem of each status class thrown as an ``OfferKitProblem`` with
/// its status, type, detail and field; and the README's example run as it is printed there.
@Suite("Swift client against a live offerkit serve")
struct OfferKitClientTests {
    static let monthly = "com.example.offerkit.monthly"
    /// openapi.json, parsed.
    static func document() -> [String: Any] {
        let data = (try? Data(contentsOf: LiveService.root.appendingPathComponent("openapi.json"))) ?? Data()
        return ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any]) ?? [:]
    }

    /// Every operationId of openapi.json.
    static var operationIDs: Set<String> {
        let paths = (document()["paths"] as? [String: [String: [String: Any]]]) ?? [:]
        return Set(paths.values.flatMap { $0.values.compactMap { $0["operationId"] as? String } })
    }

    @Test func everyOperationAnswersAndWhatItSignsVerifies() async throws {
        let service = try LiveService()
        let log = OperationLog()
        let client = service.client(middlewares: [log])
        let bundleId = service.description.bundleId
        var tokens: [(token: String, aud: String)] = []
        var legacy: [[String: Any]] = []

        let nonce = UUID().uuidString.lowercased()
        let offer = try await client.signPromotionalOffer(
            body: .json(
                .init(
                    bundleId: bundleId, productId: Self.monthly, offerIdentifier: "WINBACK50",
                    transactionId: "2000000900000001", nonce: nonce))
        ).ok.body.json
        #expect(offer.nonce == nonce && offer.keyId == "DEMOKEY123")
        tokens.append((offer.jws, "promotional-offer"))

        let request = Components.Schemas.LegacyPromotionalOfferRequest(
            bundleId: bundleId, productId: Self.monthly, offerIdentifier: "WINBACK50",
            appAccountToken: "e3b1c9a2-4f6d-4b8e-9a1c-2d3e4f5a6b7c")
        for signature in [
            try await client.signLegacyPromotionalOffer(body: .json(request)).ok.body.json,
            try await (client as any DeprecatedLegacyPath).signLegacyPromotionalOfferDeprecatedPath(
                .init(body: .json(request))
            ).ok.body.json,
        ] {
            #expect(signature.productId == Self.monthly && signature.offerIdentifier == "WINBACK50")
            legacy.append([
                "keyId": signature.keyId, "productId": signature.productId,
                "offerIdentifier": signature.offerIdentifier, "appAccountToken": signature.appAccountToken,
                "nonce": signature.nonce, "timestamp": signature.timestamp, "signature": signature.signature,
            ])
        }

        let eligibility = try await client.signIntroductoryOfferEligibility(
            body: .json(
                .init(
                    bundleId: bundleId, productId: Self.monthly, allowIntroductoryOffer: true,
                    transactionId: "2000000900000001"))
        ).ok.body.json
        tokens.append((eligibility.jws, "introductory-offer-eligibility"))

        // Each kind of Advanced Commerce request: the document's own example of it, read into the typed enum.
        let kinds = try Self.advancedCommerceExamples()
        #expect(kinds.count == 4)
        for kind in kinds {
            let signed = try await client.signAdvancedCommerceRequest(
                body: .json(.init(bundleId: bundleId, request: kind))
            ).ok.body.json
            tokens.append((signed.jws, "advanced-commerce-api"))
        }

        let server = try await client.createServerAPIToken(body: .json(.init(bundleId: bundleId, lifetime: 600)))
            .ok.body.json
        #expect(server.expiresAt - server.issuedAt == 600)
        tokens.append((server.token, "appstoreconnect-v1"))
        let connect = try await client.createConnectAPIToken(body: .json(.init(lifetime: 300, scope: ["GET /v1/apps"])))
            .ok.body.json
        tokens.append((connect.token, "appstoreconnect-v1"))

        let validation = try await client.validateCampaign(body: .json(.init(campaign: service.description.campaign)))
            .ok.body.json
        #expect(validation.valid && validation.problemCount == 0)
        let plan = try await client.planCampaign(body: .json(service.description.planRequest)).ok.body.json
        #expect(plan.campaign == service.description.claim.campaign && plan.app.appAppleId == "1234567890")
        let supplied = (service.description.planRequest.customCodes ?? []).flatMap(\.codes)
        let planned = Set(
            plan.requests.compactMap { request -> String? in
                let data = request.body.additionalProperties["data"]?.value as? [String: (any Sendable)?]
                let attributes = data?["attributes"] as? [String: (any Sendable)?]
                return attributes?["customCode"] as? String
            })
        #expect(!supplied.isEmpty && planned.isSuperset(of: supplied), "the plan lacks codes it was given")

        let claimRequest = Components.Schemas.ClaimCodeRequest(
            campaign: service.description.claim.campaign, offer: service.description.claim.offer,
            recipient: "swift-client")
        let first = try await client.claimCode(body: .json(claimRequest)).ok.body.json
        let again = try await client.claimCode(body: .json(claimRequest)).ok.body.json
        #expect(first.new && !again.new && again.code == first.code && first.url.hasSuffix("code=\(first.code)"))
        let status = try await client.campaignStatus(path: .init(name: service.description.claim.campaign)).ok.body
            .json
        let counted = status.offers.first { $0.offer == service.description.claim.offer }
        #expect(counted?.batches.reduce(0) { $0 + $1.assigned } == 1)

        // Apple calls this one: no API key.
        let apple = service.client(nil, middlewares: [log])
        let answer = try await apple.getRetentionMessage(
            body: .json(.init(signedPayload: service.description.signedPayloads[0]))
        ).ok.body.json
        let retentionOffer = try #require(answer.promotionalOffer)
        #expect(retentionOffer.messageIdentifier == "7c9e6679-7425-40de-944b-e07fc1f90ae7")
        tokens.append((try #require(retentionOffer.promotionalOfferSignatureV2), "promotional-offer"))

        let health = try await apple.health().ok.body.json
        #expect(health.status == .ok)
        #expect(try await apple.readiness().ok.body.json.apps == 2)
        let openAPI = try await apple.openAPIDocument().ok.body.json
        #expect(openAPI.openapi == ._3_1_0)
        let metricsBody = try await client.metrics().ok.body.textPlainCharsetUtf8Version_0_0_4
        let metrics = try await String(collecting: metricsBody, upTo: 1 << 22)
        #expect(metrics.contains(#"offerkit_signatures_total{type="promotional-offer"}"#))

        // The batch: one item of each type, and one for an app the service does not have.
        let batch = try await client.signBatch(
            body: .json(
                .init(requests: [
                    .promotionalOffer(
                        .init(
                            _type: .promotionalOffer, id: .init(value1: "offer"), bundleId: bundleId,
                            productId: Self.monthly, offerIdentifier: "WINBACK50")),
                    .legacyPromotionalOffer(
                        .init(
                            _type: .legacyPromotionalOffer, id: .init(value2: 2), bundleId: bundleId,
                            productId: Self.monthly, offerIdentifier: "WINBACK50",
                            appAccountToken: "e3b1c9a2-4f6d-4b8e-9a1c-2d3e4f5a6b7c")),
                    .introductoryOfferEligibility(
                        .init(
                            _type: .introductoryOfferEligibility, bundleId: bundleId, productId: Self.monthly,
                            allowIntroductoryOffer: false, transactionId: "2000000900000001")),
                    .advancedCommerce(.init(_type: .advancedCommerce, bundleId: bundleId, request: kinds[0])),
                    .serverApiToken(.init(_type: .serverApiToken, bundleId: bundleId)),
                    .connectApiToken(.init(_type: .connectApiToken, lifetime: 300)),
                    .promotionalOffer(
                        .init(
                            _type: .promotionalOffer, id: .init(value1: "unknown"), bundleId: "com.example.nothing",
                            productId: Self.monthly, offerIdentifier: "WINBACK50")),
                ]))
        ).ok.body.json
        #expect(batch.succeeded == 6 && batch.failed == 1 && batch.results.map(\.index) == Array(0..<7))
        #expect(batch.results[0].id?.value1 == "offer" && batch.results[1].id?.value2 == 2)
        let signedItem = batch.results[1]
        legacy.append([
            "keyId": signedItem.keyId ?? "", "productId": signedItem.productId ?? "",
            "offerIdentifier": signedItem.offerIdentifier ?? "", "appAccountToken": signedItem.appAccountToken ?? "",
            "nonce": signedItem.nonce?.value1 ?? signedItem.nonce?.value2 ?? "", "timestamp": signedItem.timestamp ?? 0,
            "signature": signedItem.signature ?? "",
        ])
        let batchTokens: [(token: String, aud: String)] = [
            (batch.results[0].jws ?? "", "promotional-offer"),
            (batch.results[2].jws ?? "", "introductory-offer-eligibility"),
            (batch.results[3].jws ?? "", "advanced-commerce-api"),
            (batch.results[4].token ?? "", "appstoreconnect-v1"),
            (batch.results[5].token ?? "", "appstoreconnect-v1"),
        ]
        // An item's problem is part of the 200 answer, as the typed Problem.
        let failed = batch.results[6]
        #expect(failed.status == 404 && failed.jws == nil)
        #expect(failed.problem?._type == .urn_colon_offerkit_colon_problem_colon_unknownApp)
        #expect(failed.problem?.status == 404 && failed.problem?.field == "bundleId" && failed.problem?.detail != nil)
        let batchClaims = try LiveService.verify(jws: batchTokens)
        #expect(batchClaims[0]["offerIdentifier"] as? String == "WINBACK50")
        #expect(batchClaims[3]["bid"] as? String == bundleId)

        let claims = try LiveService.verify(jws: tokens, legacy: legacy)
        #expect(claims.count == tokens.count)
        #expect(claims[0]["offerIdentifier"] as? String == "WINBACK50")
        #expect(claims[0]["nonce"] as? String == nonce)
        #expect(claims[1]["allowIntroductoryOffer"] as? Bool == true)
        #expect(claims[6]["bid"] as? String == bundleId)
        #expect(claims.last?["transactionId"] as? String == "2000000900000001")

        #expect(await log.called == Self.operationIDs, "operations of openapi.json this test did not call")
        #expect(service.stop() == 0, "offerkit serve did not exit 0 after SIGTERM")
    }

    @Test func problemsAreThrownAsOfferKitProblems() async throws {
        let service = try LiveService()
        let bundleId = service.description.bundleId
        let offer = Components.Schemas.PromotionalOfferRequest(
            bundleId: bundleId, productId: Self.monthly, offerIdentifier: "WINBACK50")
        let client = service.client()
        let narrow = service.client("narrow")

        let cases: [(status: Int, slug: String, field: String?, problem: OfferKitProblem)] = [
            (
                401, "unauthorized", nil,
                try await Self.problem {
                    try await service.client("offerkit_" + String(repeating: "A", count: 43))
                        .signPromotionalOffer(body: .json(offer))
                }
            ),
            (
                403, "forbidden", nil,
                try await Self.problem {
                    try await narrow.signLegacyPromotionalOffer(
                        body: .json(.init(bundleId: bundleId, productId: Self.monthly, offerIdentifier: "WINBACK50")))
                }
            ),
            (
                404, "unknown-app", "bundleId",
                try await Self.problem {
                    try await client.signPromotionalOffer(
                        body: .json(
                            .init(
                                bundleId: "com.example.nothing", productId: Self.monthly, offerIdentifier: "WINBACK50"))
                    )
                }
            ),
            (
                409, "nothing-to-assign", nil,
                try await Self.problem {
                    try await client.claimCode(
                        body: .json(
                            .init(
                                campaign: service.description.claim.campaign,
                                offer: service.description.claim.emptyOffer, recipient: "swift-client")))
                }
            ),
            (
                422, "invalid-field", "lifetime",
                try await Self.problem {
                    try await client.createServerAPIToken(body: .json(.init(bundleId: bundleId, lifetime: 7200)))
                }
            ),
            (
                401, "unverified-request", nil,
                try await Self.problem {
                    try await service.client(nil).getRetentionMessage(body: .json(.init(signedPayload: "a.b.c")))
                }
            ),
        ]
        for (status, slug, field, problem) in cases {
            #expect(problem.status == status, "\(problem)")
            #expect(problem.type == "urn:offerkit:problem:\(slug)", "\(problem)")
            #expect(problem.field == field, "\(problem)")
            #expect(!problem.detail.isEmpty && !problem.title.isEmpty && problem.requestId != nil)
            #expect(problem.problem?.status == status && problem.problem?._type.rawValue == problem.type)
            #expect(problem.errorDescription?.hasPrefix("\(status) urn:offerkit:problem:\(slug): ") == true)
        }

        // A batch's envelope problems are the request's: no items, or more than the key's burst.
        let empty = try await Self.problem { try await client.signBatch(body: .json(.init(requests: []))) }
        #expect(empty.status == 422 && empty.type == "urn:offerkit:problem:invalid-field" && empty.field == "requests")

        // The limited service: 4096 bytes a body at most, one request a second with a burst of one.
        let limited = service.client("limited", limited: true)
        let item = Components.Schemas.SignatureBatchRequest.RequestsPayloadPayload.serverApiToken(
            .init(_type: .serverApiToken, bundleId: bundleId))
        let overBurst = try await Self.problem {
            try await limited.signBatch(body: .json(.init(requests: [item, item])))
        }
        #expect(overBurst.status == 422 && overBurst.field == "requests" && overBurst.detail.contains("burst"))
        var campaign = service.description.campaign
        campaign.additionalProperties["padding"] = .init(stringLiteral: String(repeating: "x", count: 8192))
        let tooLarge = try await Self.problem {
            try await limited.validateCampaign(body: .json(.init(campaign: campaign)))
        }
        #expect(tooLarge.status == 413 && tooLarge.type == "urn:offerkit:problem:body-too-large", "\(tooLarge)")
        var rateLimited: OfferKitProblem?
        for _ in 0..<5 where rateLimited == nil {
            do {
                _ = try await limited.createServerAPIToken(body: .json(.init(bundleId: bundleId)))
            } catch let error as ClientError {
                let problem = try #require(error.problem, "\(error)")
                rateLimited = problem
            }
        }
        let problem = try #require(rateLimited, "five requests in a row at one a second were all answered")
        #expect(problem.status == 429 && problem.type == "urn:offerkit:problem:rate-limited", "\(problem)")
        #expect((problem.retryAfter ?? 0) >= 1 && !problem.detail.isEmpty)
        #expect(service.stop() == 0, "offerkit serve did not exit 0 after SIGTERM")
    }

    /// The README's Swift example (clients/swift/Sources/offerkit-client-example) prints a JWS that PyJWT
    /// verifies, run as printed with OFFERKIT_URL and OFFERKIT_API_KEY.
    @Test func readmeExampleRunsAsPrinted() async throws {
        let example = Bundle.main.bundleURL.deletingLastPathComponent()
            .appendingPathComponent("offerkit-client-example")
        let binary = try #require(
            [example, LiveService.root.appendingPathComponent(".build/debug/offerkit-client-example")]
                .first { FileManager.default.isExecutableFile(atPath: $0.path) },
            "build offerkit-client-example first (swift build --package-path clients/tests --product offerkit-client-example)"
        )
        let service = try LiveService()
        let process = Process()
        let output = Pipe()
        process.executableURL = binary
        process.environment = [
            "OFFERKIT_URL": service.description.url, "OFFERKIT_API_KEY": service.description.keys["all"] ?? "",
        ]
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(printed)")
        let lines = printed.split(separator: "\n").map(String.init)
        let claims = try LiveService.verify(jws: [(try #require(lines.first), "promotional-offer")])
        #expect(claims.first?["productId"] as? String == Self.monthly)
        // The second call names an app the service does not have: the problem, printed.
        #expect(lines.dropFirst().first?.hasPrefix("404 urn:offerkit:problem:unknown-app ") == true, "\(printed)")
        #expect(service.stop() == 0)
    }

    /// The problem `call` throws.
    static func problem<T>(_ call: () async throws -> T) async throws -> OfferKitProblem {
        do {
            let answer = try await call()
            throw LiveServiceError("answered, not a problem: \(answer)")
        } catch let error as ClientError {
            return try #require(error.problem, "\(error)")
        }
    }

    /// The document's example of each kind of Advanced Commerce request, decoded as the typed enum.
    static func advancedCommerceExamples() throws -> [Components.Schemas.AdvancedCommerceInAppRequest] {
        let schemas = (document()["components"] as? [String: Any])?["schemas"] as? [String: Any]
        let branches =
            ((schemas?["AdvancedCommerceInAppRequest"] as? [String: Any])?["oneOf"] as? [[String: Any]]) ?? []
        return try branches.compactMap { ($0["examples"] as? [Any])?.first }.map {
            try JSONDecoder().decode(
                Components.Schemas.AdvancedCommerceInAppRequest.self,
                from: JSONSerialization.data(withJSONObject: $0))
        }
    }
}

/// Records the operation of every request sent through it.
actor OperationLog: ClientMiddleware {
    private(set) var called: Set<String> = []

    nonisolated func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        await record(operationID)
        return try await next(request, body, baseURL)
    }

    private func record(_ operationID: String) { called.insert(operationID) }
}

/// The deprecated path's operation, called on purpose (the service still answers it), through a protocol
/// of its own so that the call does not warn.
protocol DeprecatedLegacyPath: Sendable {
    func signLegacyPromotionalOfferDeprecatedPath(
        _ input: Operations.SignLegacyPromotionalOfferDeprecatedPath.Input
    ) async throws -> Operations.SignLegacyPromotionalOfferDeprecatedPath.Output
}

extension Client: DeprecatedLegacyPath {}
