import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import OfferJSON
import OfferService
import OfferSigning
import Testing

@Suite("POST /v1/signatures/batch")
struct SignBatchTests {
    static let path = "/v1/signatures/batch"
    static let app = ServiceFixtures.app

    /// One item of each type (the body of its single endpoint), with the endpoint's path.
    static let singles: [(type: String, path: String, body: String)] = [
        (
            "promotional-offer", "/v1/signatures/promotional-offer",
            #"{"bundleId":"com.example.offerkit.demo","productId":"com.example.monthly","offerIdentifier":"WINBACK50","transactionId":"2000000123456789"}"#
        ),
        (
            "legacy-promotional-offer", "/v1/signatures/legacy-promotional-offer",
            #"{"bundleId":"com.example.offerkit.other","productId":"com.example.yearly","offerIdentifier":"ÜBER-50","appAccountToken":"E3B1C9A2-5F4D-4C8E-9A7B-1D2E3F4A5B6C"}"#
        ),
        (
            "introductory-offer-eligibility", "/v1/signatures/introductory-offer-eligibility",
            #"{"bundleId":"com.example.offerkit.demo","productId":"com.example.monthly","allowIntroductoryOffer":false,"transactionId":"2000000123456789"}"#
        ),
        (
            "advanced-commerce", "/v1/signatures/advanced-commerce",
            #"{"bundleId":"com.example.offerkit.demo","request":{"operation":"CREATE_ONE_TIME_CHARGE","version":"1","requestInfo":{"requestReferenceId":"3a6c8a34-52b5-4a8c-9b1e-0f1c2d3e4f50"},"currency":"USD","taxCode":"C003-00-2","item":{"SKU":"GEMS_500","description":"500 gems for your account","displayName":"500 Gems","price":4990}}}"#
        ),
        ("server-api-token", "/v1/tokens/server-api", #"{"bundleId":"com.example.offerkit.demo","lifetime":600}"#),
        ("connect-api-token", "/v1/tokens/connect-api", #"{"lifetime":600,"scope":["GET /v1/apps"]}"#),
    ]

    /// The audience each JWS type is verified against.
    static let audiences = [
        "promotional-offer": "promotional-offer", "introductory-offer-eligibility": "introductory-offer-eligibility",
        "advanced-commerce": "advanced-commerce-api", "server-api-token": "appstoreconnect-v1",
        "connect-api-token": "appstoreconnect-v1",
    ]

    /// `body` (a single endpoint's JSON object) as a batch item of `type`, with `id` when given.
    static func item(_ type: String, _ body: String, id: String? = nil) -> String {
        let members = body.dropFirst()
        let idMember = id.map { #","id":\#($0)"# } ?? ""
        return #"{"type":"\#(type)"\#(idMember)"# + (members.hasPrefix("}") ? "" : ",") + members
    }

    static func batch(_ items: [String]) -> String { #"{"requests":["# + items.joined(separator: ",") + "]}" }

    /// The results of a 200 batch answer.
    static func results(_ response: ServiceResponse, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [JSONValue]
    {
        #expect(response.status == 200, "\(response.text)", sourceLocation: sourceLocation)
        guard case .array(let results)? = response.json?["results"] else {
            Issue.record("no results array: \(response.text)", sourceLocation: sourceLocation)
            return []
        }
        return results
    }

    static func post(
        _ body: String, key: String? = ServiceFixtures.admin.secret, to service: OfferService? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ServiceResponse {
        try await OperationRoute(path: path).post(body, key: key, to: service, sourceLocation: sourceLocation)
    }

    @Test("every type in one batch: in order, ids echoed, each result exactly its single endpoint's members")
    func everyType() async throws {
        let ids = [#""first""#, "2", #""ü-3""#, "-4", #""""#, "9007199254740993"]
        let items = zip(Self.singles, ids).map { single, id in Self.item(single.type, single.body, id: id) }
        let service = try ServiceFixtures.service()
        let app = ServiceFixtures.application(service)
        try await app.test(.router) { client in
            let response = try await client.send(
                .post, Self.path, json: Self.batch(items), key: ServiceFixtures.admin.secret)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(response.headers[.contentType] == "application/json")
            #expect(response.json?.keys == ["results", "succeeded", "failed"])
            #expect(response.json?["succeeded"] == .integer(6))
            #expect(response.json?["failed"] == .integer(0))
            let results = try Self.results(response)
            try #require(results.count == Self.singles.count)
            for (index, single) in Self.singles.enumerated() {
                let result = results[index]
                #expect(result["index"] == .integer(index))
                #expect(result["type"] == .string(single.type))
                #expect(result["id"] == (try JSONValue.parse(Array(ids[index].utf8))), "\(single.type)")
                #expect(result["status"] == .integer(200), "\(single.type): \(result.text())")
                // The same members, in the same order, as the single endpoint answers.
                let alone = try await client.send(
                    .post, single.path, json: single.body, key: ServiceFixtures.admin.secret)
                #expect(alone.status == 200, "\(alone.text)")
                #expect(Array(result.keys.dropFirst(4)) == alone.json?.keys, "\(single.type)")
                #expect(result.keys.prefix(4) == ["index", "type", "id", "status"])
            }
            // The legacy signature's echoed values are the single endpoint's.
            #expect(results[1]["appAccountToken"] == .string("e3b1c9a2-5f4d-4c8e-9a7b-1d2e3f4a5b6c"))
            #expect(results[1]["offerIdentifier"] == .string("ÜBER-50"))
        }
    }

    @Test(
        "every JWS of a batch verifies with PyJWT and cryptography, every legacy signature with openssl",
        .enabled(IndependentVerifier.pythonReason) { await IndependentVerifier.pythonEnabled },
        .enabled(IndependentVerifier.opensslReason) { await IndependentVerifier.opensslEnabled })
    func signaturesVerifyIndependently() async throws {
        // Four of each type: 24 items, signed in several chunks.
        var items: [String] = []
        for round in 0..<4 {
            for single in Self.singles { items.append(Self.item(single.type, single.body, id: "\(round)")) }
        }
        let results = try Self.results(try await Self.post(Self.batch(items)))
        try #require(results.count == items.count)
        var tokens: [(token: String, audience: String)] = []
        var types: [String] = []
        for result in results {
            guard case .string(let type)? = result["type"] else { continue }
            #expect(result["status"] == .integer(200), "\(result.text())")
            if type == "legacy-promotional-offer" {
                try await Self.expectLegacyVerified(result, bundleId: ServiceFixtures.otherApp)
                continue
            }
            let member = type.hasSuffix("-token") ? "token" : "jws"
            guard case .string(let token)? = result[member] else {
                Issue.record("\(type): no \(member) in \(result.text())")
                continue
            }
            tokens.append((token, Self.audiences[type] ?? ""))
            types.append(type)
        }
        #expect(tokens.count == 20)
        let verified = try await IndependentVerifier.verify(tokens)
        try #require(verified.count == tokens.count)
        for (type, jws) in zip(types, verified) {
            jws.expectDemoKeyHeader()
            switch type {
            case "promotional-offer":
                #expect(jws.claims["offerIdentifier"] == .string("WINBACK50"))
                #expect(jws.claims["transactionId"] == .string("2000000123456789"))
                #expect(jws.claims["bid"] == .string(ServiceFixtures.app))
            case "introductory-offer-eligibility":
                #expect(jws.claims["allowIntroductoryOffer"] == .bool(false))
            case "server-api-token":
                #expect(jws.claims["bid"] == .string(ServiceFixtures.app))
            case "connect-api-token":
                #expect(jws.claims["scope"] == .array([.string("GET /v1/apps")]))
            default:
                #expect(jws.claims["request"] != nil, "\(type)")
            }
        }
    }

    /// openssl verifies the legacy signature in `result` over the seven signed values.
    static func expectLegacyVerified(_ result: JSONValue, bundleId: String) async throws {
        let names = ["keyId", "productId", "offerIdentifier", "appAccountToken", "nonce"]
        var fields = [bundleId]
        for name in names {
            guard case .string(let value)? = result[name] else { throw MissingMember(name: name) }
            fields.append(value)
        }
        guard case .number(let timestamp)? = result["timestamp"], case .string(let signature)? = result["signature"]
        else { throw MissingMember(name: "timestamp or signature") }
        fields.append(timestamp)
        let checked = try await IndependentVerifier.opensslVerify(
            signatureBase64: signature, message: Array(fields.joined(separator: "\u{2063}").utf8))
        #expect(checked.status == 0, "openssl refused the signature: \(checked.stderr)")
    }

    struct MissingMember: Error, CustomStringConvertible {
        let name: String
        var description: String { "the result has no \(name)" }
    }

    @Test("a mixed batch: each failure is the single endpoint's problem, the other items are signed, in order")
    func mixedFailures() async throws {
        let valid = Self.singles[0].body
        let badField = #"{"bundleId":"com.example.offerkit.demo","productId":42,"offerIdentifier":"WINBACK50"}"#
        let otherApp = #"{"bundleId":"com.example.offerkit.other","productId":"p","offerIdentifier":"o"}"#
        let legacy = Self.singles[1].body
        let connect = Self.singles[5].body
        let unknownMember =
            #"{"bundleId":"com.example.offerkit.demo","productId":"p","offerIdentifier":"o","offerId":"x"}"#
        // Items whose problem must equal the single endpoint's, for the promotional-only key
        // (scope promotional-offer, bundle ID com.example.offerkit.demo only).
        let compared: [(index: Int, path: String, body: String)] = [
            (1, "/v1/signatures/promotional-offer", badField),
            (2, "/v1/signatures/legacy-promotional-offer", legacy),
            (3, "/v1/signatures/promotional-offer", otherApp),
            (7, "/v1/tokens/connect-api", connect),
            (8, "/v1/signatures/promotional-offer", unknownMember),
        ]
        let items = [
            Self.item("promotional-offer", valid, id: #""ok-0""#),
            Self.item("promotional-offer", badField, id: "1"),
            Self.item("legacy-promotional-offer", legacy, id: "2"),
            Self.item("promotional-offer", otherApp, id: "3"),
            Self.item("promotional-offer-v2", valid, id: "4"),
            #"{"id":5,"bundleId":"com.example.offerkit.demo"}"#,
            "42",
            Self.item("connect-api-token", connect, id: "7"),
            Self.item("promotional-offer", unknownMember, id: "8"),
            Self.item("promotional-offer", valid, id: "true"),
            Self.item("promotional-offer", valid, id: #"{"a":1}"#),
            Self.item("promotional-offer", valid, id: "1.5"),
            Self.item("promotional-offer", valid, id: #""ok-12""#),
        ]
        let requestId: HTTPFields = [RequestHeader.requestId: "batch-mixed-1"]
        let service = try ServiceFixtures.service()
        try await ServiceFixtures.application(service).test(.router) { client in
            let key = ServiceFixtures.promotionalOnly.secret
            let response = try await client.send(
                .post, Self.path, json: Self.batch(items), key: key, headers: requestId)
            let results = try Self.results(response)
            try #require(results.count == items.count)
            #expect(results.enumerated().allSatisfy { $0.element["index"] == .integer($0.offset) })
            #expect(response.json?["succeeded"] == .integer(2))
            #expect(response.json?["failed"] == .integer(11))
            for index in [0, 12] {
                #expect(results[index]["status"] == .integer(200), "\(results[index].text())")
                #expect(results[index]["jws"] != nil)
                #expect(results[index]["problem"] == nil)
            }
            #expect(results[0]["id"] == .string("ok-0"))
            #expect(results[12]["id"] == .string("ok-12"))
            for item in compared {
                let alone = try await client.send(.post, item.path, json: item.body, key: key, headers: requestId)
                #expect(alone.status >= 400)
                let result = results[item.index]
                #expect(result["status"] == .integer(alone.status), "\(item.index): \(result.text())")
                #expect(result["problem"] == alone.json, "\(item.index): \(result.text()) vs \(alone.text)")
                #expect(result["id"] == .integer(item.index))
                #expect(result.keys == ["index", "type", "id", "status", "problem"])
            }
            #expect(results[1]["problem"]?["field"] == .string("productId"))
            #expect(results[2]["problem"]?["type"] == .string("urn:offerkit:problem:forbidden"))
            #expect(results[2]["status"] == .integer(403))
            #expect(results[3]["problem"]?["field"] == .string("bundleId"))
            #expect(results[3]["status"] == .integer(403))
            // An unknown type: 422 naming `type`, no type echoed; a missing one likewise.
            for index in [4, 5] {
                #expect(results[index]["status"] == .integer(422))
                #expect(results[index]["type"] == nil)
                #expect(results[index]["problem"]?["field"] == .string("type"), "\(results[index].text())")
                #expect(results[index]["problem"]?["requestId"] == .string("batch-mixed-1"))
            }
            #expect(results[4]["id"] == .integer(4))
            #expect(results[5]["id"] == .integer(5))
            // Not an object.
            #expect(results[6]["status"] == .integer(422))
            #expect(results[6].keys == ["index", "status", "problem"])
            #expect(results[6]["problem"]?["detail"] == .string("(body): expected an object, found the number 42"))
            // An id that is neither a string nor an integer: 422 naming `id`, and not echoed.
            for index in 9...11 {
                #expect(results[index]["status"] == .integer(422), "\(results[index].text())")
                #expect(results[index]["problem"]?["field"] == .string("id"))
                #expect(results[index]["id"] == nil)
                #expect(results[index]["type"] == .string("promotional-offer"))
            }
            #expect(
                results[9]["problem"]?["detail"]
                    == .string("id: expected a string or an integer, found the boolean true"))
        }
    }

    @Test("bundle IDs the service does not have, and library-refused fields, are the single endpoint's problems")
    func unknownAppAndLibraryRefusal() async throws {
        let unknown = #"{"bundleId":"com.example.unknown","productId":"p","offerIdentifier":"o"}"#
        let badSKU =
            #"{"bundleId":"com.example.offerkit.demo","request":{"operation":"CREATE_ONE_TIME_CHARGE","version":"1","requestInfo":{"requestReferenceId":"3a6c8a34-52b5-4a8c-9b1e-0f1c2d3e4f50"},"currency":"usd","taxCode":"C003-00-2","item":{"SKU":"GEMS_500","description":"500 gems","displayName":"500 Gems","price":4990}}}"#
        let cases = [
            ("promotional-offer", "/v1/signatures/promotional-offer", unknown),
            ("advanced-commerce", "/v1/signatures/advanced-commerce", badSKU),
        ]
        let requestId: HTTPFields = [RequestHeader.requestId: "batch-unknown-app"]
        let service = try ServiceFixtures.service { $0.connectAPI = nil }
        try await ServiceFixtures.application(service).test(.router) { client in
            let items = cases.map { Self.item($0.0, $0.2) } + [Self.item("connect-api-token", "{}")]
            let response = try await client.send(
                .post, Self.path, json: Self.batch(items), key: ServiceFixtures.admin.secret, headers: requestId)
            let results = try Self.results(response)
            try #require(results.count == 3)
            for (index, single) in cases.enumerated() {
                let alone = try await client.send(
                    .post, single.1, json: single.2, key: ServiceFixtures.admin.secret, headers: requestId)
                #expect(results[index]["status"] == .integer(alone.status))
                #expect(results[index]["problem"] == alone.json, "\(results[index].text())")
                #expect(results[index]["id"] == nil)
            }
            #expect(results[0]["status"] == .integer(404))
            #expect(results[1]["problem"]?["field"] == .string("request.currency"))
            let connect = try await client.send(
                .post, "/v1/tokens/connect-api", json: "{}", key: ServiceFixtures.admin.secret, headers: requestId)
            #expect(connect.status == 404)
            #expect(results[2]["problem"] == connect.json)
        }
    }

    @Test(
        "envelope problems answer for the whole request",
        arguments: [
            (#"{"requests":[]}"#, 422, "requests", "requests: expected an array of at least 1 element"),
            (#"{"requests":{}}"#, 422, "requests", "requests: expected an array, found an object"),
            (#"{"requests":"x"}"#, 422, "requests", "requests: expected an array, found a string"),
            (#"{}"#, 422, "requests", "requests: expected"),
            (#"[]"#, 422, "(body)", "(body): expected an object"),
            (#"{"requests":[{}],"more":1}"#, 422, "more", "more: expected no such member"),
            (#"{"requests":[{}"#, 400, nil, "the body is not valid JSON"),
        ] as [(String, Int, String?, String)])
    func envelopeProblems(body: String, status: Int, field: String?, detail: String) async throws {
        let service = try ServiceFixtures.service()
        let response = try await Self.post(body, to: service)
        #expect(response.status == status, "\(response.text)")
        #expect(response.string("field") == field)
        #expect(response.string("detail")?.hasPrefix(detail) == true, "\(response.text)")
        #expect(!service.state.metrics.exposition().contains("offerkit_signatures_total{"))
    }

    @Test("1,001 items are a 422 naming requests; 1,000 pass the envelope")
    func maximumItems() async throws {
        let item = Self.item("promotional-offer", Self.singles[0].body)
        let over = try await Self.post(Self.batch(Array(repeating: item, count: 1001)))
        #expect(over.status == 422)
        #expect(over.string("field") == "requests")
        #expect(
            over.string("detail")
                == "requests: expected an array of at most 1000 elements, found an array of 1001 elements"
        )
        // 1,000 items with a burst to hold them: every one signed, in order.
        let service = try ServiceFixtures.service { $0.limits.burst = 1000 }
        let results = try Self.results(
            try await Self.post(Self.batch(Array(repeating: item, count: 1000)), to: service))
        #expect(results.count == 1000)
        #expect(results.enumerated().allSatisfy { $0.element["index"] == .integer($0.offset) })
        #expect(results.allSatisfy { $0["status"] == .integer(200) })
        let nonces = results.compactMap { result -> String? in
            guard case .string(let nonce)? = result["nonce"] else { return nil }
            return nonce
        }
        #expect(Set(nonces).count == 1000)
        #expect(
            service.state.metrics.exposition().contains(#"offerkit_signatures_total{type="promotional-offer"} 1000"#))
    }

    @Test(
        "no API key, or an unknown one, is a 401 for the whole batch; a key without any signing scope is 403 per item")
    func authentication() async throws {
        let body = Self.batch([Self.item("promotional-offer", Self.singles[0].body)])
        let anonymous = try await Self.post(body, key: nil)
        #expect(anonymous.status == 401)
        #expect(anonymous.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
        let unknown = try await Self.post(body, key: APIKey.generate(name: "stranger").secret)
        #expect(unknown.status == 401)
        let metricsOnly = APIKey.generate(name: "metrics-only", scopes: [.metrics])
        let service = try ServiceFixtures.service { $0.apiKeys.append(metricsOnly.key) }
        let results = try Self.results(try await Self.post(body, key: metricsOnly.secret, to: service))
        #expect(results.first?["status"] == .integer(403))
        #expect(
            results.first?["problem"]?["detail"]
                == .string("API key 'metrics-only' does not have the scope 'promotional-offer'"))
    }

    @Test("without authentication every item is signed, with no scope checks")
    func withoutAuthentication() async throws {
        let service = try ServiceFixtures.service(authentication: .disabled)
        let items = Self.singles.map { Self.item($0.type, $0.body) }
        let response = try await Self.post(Self.batch(items), key: nil, to: service)
        #expect(response.json?["succeeded"] == .integer(6), "\(response.text)")
    }

    @Test("rate limit: one token per item, all or none; more items than the burst can never pass")
    func rateLimitPerItem() async throws {
        let clock = ManualClock()
        let base = try ServiceFixtures.service()
        let state = ServiceState(
            apps: base.state.apps, apiKeys: base.state.apiKeys, limits: ServiceLimits(), authentication: .required,
            rateLimiter: RateLimiter(requestsPerSecond: 1, burst: 10, now: { clock.now }))
        let item = Self.item("promotional-offer", Self.singles[0].body)
        let batch = { @Sendable (count: Int) in Self.batch(Array(repeating: item, count: count)) }
        let admin = ServiceFixtures.admin.secret
        try await ServiceFixtures.application(OfferService(state: state)).test(.router) { client in
            let four = try await client.send(.post, Self.path, json: batch(4), key: admin)
            #expect(four.status == 200)
            // 6 tokens left: 7 items wait for one more second, and take nothing.
            let seven = try await client.send(.post, Self.path, json: batch(7), key: admin)
            #expect(seven.status == 429)
            #expect(seven.headers[.retryAfter] == "1")
            #expect(
                seven.string("detail")
                    == "API key 'admin' used up its rate limit (1 requests per second, bursts of 10); a batch of 7 "
                    + "items takes 7 tokens; retry in 1 s")
            // More than the burst: refused whatever the bucket holds.
            let eleven = try await client.send(.post, Self.path, json: batch(11), key: admin)
            #expect(eleven.status == 422)
            #expect(eleven.string("field") == "requests")
            #expect(eleven.string("detail")?.contains("its burst is 10") == true, "\(eleven.text)")
            // The 6 tokens are all still there: a single request and a batch of 5 use them up.
            let single = try await client.send(
                .post, ServiceFixtures.promotionalOfferPath, json: Self.singles[0].body, key: admin)
            #expect(single.status == 200)
            let five = try await client.send(.post, Self.path, json: batch(5), key: admin)
            #expect(five.status == 200)
            let one = try await client.send(.post, Self.path, json: batch(1), key: admin)
            #expect(one.status == 429)
            clock.advance(by: 3)
            let three = try await client.send(.post, Self.path, json: batch(3), key: admin)
            #expect(three.status == 200)
        }
    }

    @Test("metrics: each signed item counts by its type, each failed one by its problem, the request once")
    func metrics() async throws {
        let service = try ServiceFixtures.service()
        let items = [
            Self.item("promotional-offer", Self.singles[0].body), Self.item("promotional-offer", Self.singles[0].body),
            Self.item("legacy-promotional-offer", Self.singles[1].body),
            Self.item("server-api-token", Self.singles[4].body),
            Self.item(
                "promotional-offer", #"{"bundleId":"com.example.unknown","productId":"p","offerIdentifier":"o"}"#),
        ]
        let response = try await Self.post(Self.batch(items), to: service)
        #expect(response.status == 200)
        let exposition = service.state.metrics.exposition()
        for line in [
            #"offerkit_signatures_total{type="promotional-offer"} 2"#,
            #"offerkit_signatures_total{type="legacy-promotional-offer"} 1"#,
            #"offerkit_signatures_total{type="server-api-token"} 1"#,
            #"offerkit_problems_total{type="unknown-app"} 1"#,
            #"offerkit_http_requests_total{operation="signBatch",status="200"} 1"#,
        ] {
            #expect(exposition.contains(line), "\(line) missing in:\n\(exposition)")
        }
        #expect(!exposition.contains(#"operation="signPromotionalOffer""#))
    }

    @Test("the request's log line counts the items and the failures")
    func logLine() async throws {
        let records = LogRecords()
        let service = try ServiceFixtures.service()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(records: records) }
        let app = Application(router: service.testRouter(), logger: logger)
        let items = [
            Self.item("promotional-offer", Self.singles[0].body), Self.item("promotional-offer", "{}"),
        ]
        try await app.test(.router) { client in
            let response = try await client.send(
                .post, Self.path, json: Self.batch(items), key: ServiceFixtures.admin.secret)
            #expect(response.status == 200)
        }
        let line = try #require(records.all.first { $0.message == "request" })
        #expect(line.metadata["operation"] == "signBatch")
        #expect(line.metadata["batch.items"] == "2")
        #expect(line.metadata["batch.failed"] == "1")
        #expect(line.metadata["api.key"] == "admin")
    }
}
