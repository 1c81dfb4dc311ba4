import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import OfferSigning
import Testing

@testable import OfferService

@Suite("Observability: request ids, metrics, logs")
struct ObservabilityTests {
    let path = ServiceFixtures.promotionalOfferPath
    let body = ServiceFixtures.promotionalOfferBody

    @Test(
        "a well-formed X-Request-Id is echoed, on successes and problems",
        arguments: ["abc", "req-123_X.y:z", String(repeating: "a", count: 128), "0"])
    func requestIdEchoed(id: String) async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let ok = try await client.call(.get, "/healthz", headers: [RequestHeader.requestId: id])
            #expect(ok.status == 200)
            #expect(ok.headers[RequestHeader.requestId] == id)
            let problem = try await client.call(.get, "/nope", headers: [RequestHeader.requestId: id])
            #expect(problem.headers[RequestHeader.requestId] == id)
            #expect(problem.string("requestId") == id)
        }
    }

    @Test(
        "a malformed X-Request-Id is replaced by a fresh one",
        arguments: [
            String(repeating: "a", count: 129), "", "has space", "semi;colon", "ünï", "a,b", "quote\"d", "tab\there",
            "slash/x", "{json}",
        ])
    func requestIdReplaced(id: String) async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            for path in ["/healthz", "/nope"] {
                let response = try await client.call(.get, path, headers: [RequestHeader.requestId: id])
                let echoed = try #require(response.headers[RequestHeader.requestId])
                #expect(echoed != id)
                #expect(Self.isFreshId(echoed), "\(echoed)")
            }
        }
    }

    @Test("without X-Request-Id each request gets its own fresh id, also on problems")
    func requestIdGenerated() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            var ids = Set<String>()
            for path in ["/healthz", "/healthz", "/nope", "/metrics"] {
                let response = try await client.call(.get, path)
                let id = try #require(response.headers[RequestHeader.requestId])
                #expect(Self.isFreshId(id))
                ids.insert(id)
            }
            #expect(ids.count == 4)
        }
    }

    /// 16 lower-case hexadecimal digits.
    static func isFreshId(_ id: String) -> Bool {
        id.utf8.count == 16 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    @Test("/metrics needs a key with the metrics scope")
    func metricsNeedsScope() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let anonymous = try await client.call(.get, "/metrics")
            #expect(anonymous.status == 401)
            #expect(anonymous.problemSlug == "unauthorized")
            let unscoped = try await client.call(.get, "/metrics", key: ServiceFixtures.promotionalOnly.secret)
            #expect(unscoped.status == 403)
            let scoped = try await client.call(.get, "/metrics", key: ServiceFixtures.admin.secret)
            #expect(scoped.status == 200)
            #expect(scoped.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
        }
    }

    @Test("/metrics counts signatures by type, problems by type, requests, and their durations")
    func metrics() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        let text = try await app.test(.router) { client in
            let admin = ServiceFixtures.admin.secret
            let signed = try await client.call(.post, path, body: body, key: admin)
            #expect(signed.status == 200)
            let invalid = try await client.call(.post, path, body: #"{"bundleId":"x"}"#, key: admin)
            #expect(invalid.status == 422)
            let unauthorized = try await client.call(.get, "/metrics")
            #expect(unauthorized.status == 401)
            _ = try await client.call(.get, "/nope")
            return try await client.call(.get, "/metrics", key: admin).text
        }
        let lines = Set(text.split(separator: "\n").map(String.init))
        let expected = [
            #"offerkit_signatures_total{type="promotional-offer"} 1"#,
            #"offerkit_problems_total{type="invalid-field"} 1"#,
            #"offerkit_problems_total{type="unauthorized"} 1"#,
            #"offerkit_problems_total{type="not-found"} 1"#,
            #"offerkit_http_requests_total{operation="signPromotionalOffer",status="200"} 1"#,
            #"offerkit_http_requests_total{operation="signPromotionalOffer",status="422"} 1"#,
            #"offerkit_http_requests_total{operation="metrics",status="401"} 1"#,
            #"offerkit_http_requests_total{operation="unmatched",status="404"} 1"#,
            #"offerkit_http_request_duration_seconds_count{operation="signPromotionalOffer"} 2"#,
            #"offerkit_http_request_duration_seconds_bucket{operation="signPromotionalOffer",le="+Inf"} 2"#,
        ]
        for line in expected {
            #expect(lines.contains(line), "missing \(line) in\n\(text)")
        }
        #expect(text.contains("# TYPE offerkit_http_request_duration_seconds histogram"), "\(text)")
        #expect(
            lines.contains {
                $0.hasPrefix(#"offerkit_http_request_duration_seconds_sum{operation="signPromotionalOffer"} "#)
            })
        // The metrics request itself is counted after its answer is written.
        #expect(!text.contains(#"operation="metrics",status="200""#))
    }

    @Test("each service keeps its own metrics")
    func metricsPerService() async throws {
        let first = ServiceFixtures.application(try ServiceFixtures.service())
        try await first.test(.router) { client in
            _ = try await client.call(.post, path, body: body, key: ServiceFixtures.admin.secret)
        }
        let second = ServiceFixtures.application(try ServiceFixtures.service())
        let text = try await second.test(.router) { client in
            try await client.call(.get, "/metrics", key: ServiceFixtures.admin.secret).text
        }
        #expect(!text.contains("offerkit_signatures_total{"))
    }

    @Test("log lines carry request.id: the request line, an operation's own lines and internal errors")
    func logLines() async throws {
        let records = LogRecords()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(records: records) }
        let service = try ServiceFixtures.service()
        let operations = OfferService.operations + [TestOperations.nested, TestOperations.failing]
        try await service.testApplication(operations: operations, logger: logger).test(.router) { client in
            let key = ServiceFixtures.promotionalOnly.secret
            _ = try await client.call(.post, path, body: body, key: key, headers: [RequestHeader.requestId: "sign-1"])
            _ = try await client.call(
                .post, "/test/nested", body: #"{"a":{"b":[{"c":"x"}]}}"#, key: key,
                headers: [RequestHeader.requestId: "nested-1"])
            _ = try await client.call(.get, "/test/failing", key: key, headers: [RequestHeader.requestId: "fail-1"])
            _ = try await client.call(.get, "/nope", headers: [RequestHeader.requestId: "nope-1"])
            _ = try await client.call(.get, "/metrics", key: key, headers: [RequestHeader.requestId: "forbidden-1"])
        }
        let all = records.all
        func requestLine(_ id: String) -> LogRecord? {
            all.first { $0.message == "request" && $0.metadata["request.id"] == id }
        }
        let sign = try #require(requestLine("sign-1"))
        #expect(sign.level == .info)
        #expect(sign.metadata["http.status"] == "200")
        #expect(sign.metadata["http.method"] == "POST")
        #expect(sign.metadata["http.path"] == path)
        #expect(sign.metadata["operation"] == "signPromotionalOffer")
        #expect(sign.metadata["api.key"] == "promotional-only")
        #expect(sign.metadata["duration.ms"] != nil)

        let handlerLine = try #require(all.first { $0.message == "nested handler ran" })
        #expect(handlerLine.metadata["request.id"] == "nested-1")
        #expect(handlerLine.metadata["operation"] == "nested")
        #expect(handlerLine.metadata["api.key"] == "promotional-only")

        let failure = try #require(all.first { $0.message == "internal error" })
        #expect(failure.level == .error)
        #expect(failure.metadata["request.id"] == "fail-1")
        #expect(failure.metadata["error.type"]?.contains("InternalFailure") == true)
        #expect(requestLine("fail-1")?.metadata["http.status"] == "500")

        // A refused key is named too: the log says who was refused.
        let forbidden = try #require(requestLine("forbidden-1"))
        #expect(forbidden.metadata["http.status"] == "403")
        #expect(forbidden.metadata["operation"] == "metrics")
        #expect(forbidden.metadata["api.key"] == "promotional-only")

        let unmatched = try #require(requestLine("nope-1"))
        #expect(unmatched.metadata["http.status"] == "404")
        #expect(unmatched.metadata["operation"] == "unmatched")
        #expect(unmatched.metadata["api.key"] == nil)

        // Every line the service wrote for a request names it, and none holds key material.
        for record in all {
            #expect(record.metadata["request.id"] != nil, "\(record.message)")
            #expect(DemoKeyMaterial.leaks(in: "\(record.message) \(record.metadata)") == nil, "\(record.message)")
            #expect(!"\(record.metadata)".contains("hunter2"))
            #expect(!"\(record.message) \(record.metadata)".contains(ServiceFixtures.promotionalOnly.secret))
        }
    }

    @Test(
        "the logged duration is milliseconds with three decimals, rounded to the microsecond",
        arguments: [
            (0, "0.000"), (499, "0.000"), (500, "0.001"), (721_400, "0.721"), (1_000_000, "1.000"),
            (12_345_678, "12.346"), (-5, "0.000"),
        ] as [(Int64, String)])
    func durationFormat(nanoseconds: Int64, text: String) {
        #expect(RequestObservationMiddleware.milliseconds(nanoseconds) == text)
    }
}
