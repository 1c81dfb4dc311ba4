import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import OfferSigning
import Testing

@testable import OfferService

@Suite("Limits: body size, media type, JSON, rate limit, timeout, internal errors")
struct LimitsTests {
    let path = ServiceFixtures.promotionalOfferPath
    let body = ServiceFixtures.promotionalOfferBody

    /// `body` padded with trailing spaces to exactly `size` bytes.
    func body(ofSize size: Int) -> String {
        body + String(repeating: " ", count: size - body.utf8.count)
    }

    @Test("a body larger than maxBodyBytes is a 413 body-too-large problem; one at the limit is read")
    func bodyTooLarge() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service { $0.limits.maxBodyBytes = 1024 })
        try await app.test(.router) { client in
            let key = ServiceFixtures.admin.secret
            let atLimit = try await client.call(.post, path, body: body(ofSize: 1024), key: key)
            #expect(atLimit.status == 200, "\(atLimit.text)")
            for size in [1025, 4096, 100_000] {
                let response = try await client.call(.post, path, body: body(ofSize: size), key: key)
                #expect(response.status == 413)
                #expect(response.problemSlug == "body-too-large")
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(response.string("detail")?.contains("1024 bytes") == true)
            }
        }
    }

    @Test("a body cut off while streaming (no Content-Length, as in chunked uploads) is a 413 problem too")
    func streamedBodyTooLarge() async throws {
        // The test client always declares the length, so these operations throw what reading a
        // chunked body past the limit throws.
        let nio = TestOperations.operation("nio-too-many-bytes") { _ in throw NIOTooManyBytesError(maxBytes: 2048) }
        let http = TestOperations.operation("http-too-large") { _ in throw HTTPError(.contentTooLarge) }
        let app = try ServiceFixtures.service().testApplication(operations: [nio, http])
        try await app.test(.router) { client in
            let key = ServiceFixtures.admin.secret
            let cutOff = try await client.call(.get, "/test/nio-too-many-bytes", key: key)
            #expect(cutOff.status == 413)
            #expect(cutOff.problemSlug == "body-too-large")
            #expect(cutOff.string("detail")?.contains("2048 bytes") == true)
            let hummingbird = try await client.call(.get, "/test/http-too-large", key: key)
            #expect(hummingbird.status == 413)
            #expect(hummingbird.problemSlug == "body-too-large")
        }
    }

    @Test(
        "a wrong or missing Content-Type is a 415 unsupported-media-type problem",
        arguments: [
            "text/plain", "application/x-www-form-urlencoded", "application/problem+json", "application/jsonx",
            "multipart/form-data; boundary=x", "json", " ; charset=utf-8", "application/ json", nil,
        ] as [String?])
    func unsupportedMediaType(contentType: String?) async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let response = try await client.call(
                .post, path, body: body, contentType: contentType, key: ServiceFixtures.admin.secret)
            #expect(response.status == 415)
            #expect(response.problemSlug == "unsupported-media-type")
            #expect(response.string("detail")?.contains(contentType ?? "found none") == true)
        }
    }

    @Test(
        "application/json is accepted with parameters and in any case",
        arguments: [
            "application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "application/json ;x=y",
            "Application/Json;charset=UTF-8",
        ])
    func jsonMediaTypes(contentType: String) async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let response = try await client.call(
                .post, path, body: body, contentType: contentType, key: ServiceFixtures.admin.secret)
            #expect(response.status == 200, "\(response.text)")
        }
    }

    @Test(
        "malformed JSON is a 400 malformed-json problem that says where parsing stopped",
        arguments: ["", "{", "{\"bundleId\":}", "[1,]", "{\"a\":1} x", "nul", "{'a':1}", "\"unterminated"])
    func malformedJSON(text: String) async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let response = try await client.call(.post, path, body: text, key: ServiceFixtures.admin.secret)
            #expect(response.status == 400)
            #expect(response.problemSlug == "malformed-json")
            let detail = try #require(response.string("detail"))
            #expect(detail.hasPrefix("the body is not valid JSON: "))
            // The parser's message, not a Swift type's description.
            #expect(!detail.contains("ParseError") && !detail.contains("message:"))
        }
    }

    @Test("rate limit: a used-up burst is a 429 with Retry-After, per key, until time passes")
    func rateLimit() async throws {
        let clock = ManualClock()
        let base = try ServiceFixtures.service()
        let state = ServiceState(
            apps: base.state.apps, apiKeys: base.state.apiKeys, limits: ServiceLimits(), authentication: .required,
            rateLimiter: RateLimiter(requestsPerSecond: 0.5, burst: 2, now: { clock.now }))
        let app = ServiceFixtures.application(OfferService(state: state))
        try await app.test(.router) { client in
            let admin = ServiceFixtures.admin.secret
            let first = try await client.call(.post, path, body: body, key: admin)
            let second = try await client.call(.post, path, body: body, key: admin)
            #expect(first.status == 200)
            #expect(second.status == 200)
            let limited = try await client.call(.post, path, body: body, key: admin)
            #expect(limited.status == 429)
            #expect(limited.problemSlug == "rate-limited")
            #expect(limited.headers[.retryAfter] == "2")
            #expect(limited.string("detail")?.contains("retry in 2 s") == true)
            // Other keys have their own bucket.
            let other = try await client.call(.post, path, body: body, key: ServiceFixtures.promotionalOnly.secret)
            #expect(other.status == 200)
            // A request that fails authentication takes no token.
            let anonymous = try await client.call(.post, path, body: body)
            #expect(anonymous.status == 401)
            // One second later half a token has come back: still limited, for one more second.
            clock.advance(by: 1)
            let early = try await client.call(.post, path, body: body, key: admin)
            #expect(early.status == 429)
            #expect(early.headers[.retryAfter] == "1")
            clock.advance(by: 1)
            let again = try await client.call(.post, path, body: body, key: admin)
            #expect(again.status == 200)
            let afterAgain = try await client.call(.post, path, body: body, key: admin)
            #expect(afterAgain.status == 429)
        }
    }

    @Test("rate limiter: bucket arithmetic with an injected clock")
    func rateLimiterUnit() {
        let clock = ManualClock()
        let limiter = RateLimiter(requestsPerSecond: 10, burst: 3, now: { clock.now })
        #expect((0..<3).map { _ in limiter.acquire(for: "a") } == [nil, nil, nil] as [Int?])
        #expect(limiter.acquire(for: "a") == 1)
        #expect(limiter.acquire(for: "b") == nil)
        clock.advance(by: 0.1)
        #expect(limiter.acquire(for: "a") == nil)
        #expect(limiter.acquire(for: "a") == 1)
        // The bucket never holds more than the burst.
        clock.advance(by: 3600)
        #expect((0..<4).map { _ in limiter.acquire(for: "a") } == [nil, nil, nil, 1] as [Int?])
    }

    @Test("rate limiter: several tokens at once (a batch) are taken all or none")
    func rateLimiterSeveralTokens() {
        let clock = ManualClock()
        let limiter = RateLimiter(requestsPerSecond: 2, burst: 10, now: { clock.now })
        #expect(limiter.acquire(4, for: "a") == nil)
        // 6 left: 9 need 3 more, 1.5 s away, answered as 2 s; nothing was taken.
        #expect(limiter.acquire(9, for: "a") == 2)
        #expect(limiter.acquire(6, for: "a") == nil)
        #expect(limiter.acquire(for: "a") == 1)
        clock.advance(by: 5)
        #expect(limiter.acquire(10, for: "a") == nil)
        // More than the burst never fits; the wait is what the bucket would need.
        clock.advance(by: 3600)
        #expect(limiter.acquire(11, for: "a") == 1)
        #expect(limiter.acquire(10, for: "a") == nil)
    }

    @Test("rate limiter: a clock stepping back, a zero rate and odd bursts do not trap")
    func rateLimiterEdges() {
        let clock = ManualClock()
        let backwards = RateLimiter(requestsPerSecond: 1, burst: 1, now: { clock.now })
        #expect(backwards.acquire(for: "a") == nil)
        clock.advance(by: -100)
        #expect(backwards.acquire(for: "a") == 1)
        clock.advance(by: 100)
        #expect(backwards.acquire(for: "a") == 1)
        clock.advance(by: 1)
        #expect(backwards.acquire(for: "a") == nil)

        let stopped = RateLimiter(requestsPerSecond: 0, burst: 1, now: { clock.now })
        #expect(stopped.acquire(for: "a") == nil)
        #expect(stopped.acquire(for: "a") == RateLimiter.maximumWait)
        let negative = RateLimiter(requestsPerSecond: -5, burst: .nan, now: { clock.now })
        #expect(negative.burst == 1)
        #expect(negative.acquire(for: "a") == nil)
        #expect(negative.acquire(for: "a") == RateLimiter.maximumWait)
        let slow = RateLimiter(requestsPerSecond: 1e-9, burst: 1, now: { clock.now })
        #expect(slow.acquire(for: "a") == nil)
        #expect(slow.acquire(for: "a") == RateLimiter.maximumWait)
    }

    @Test("an operation that outlives the request timeout is a 503 timeout problem")
    func timeout() async throws {
        let service = try ServiceFixtures.service { $0.limits = ServiceLimits(requestTimeoutSeconds: 0.05) }
        let app = service.testApplication(operations: [TestOperations.slow])
        try await app.test(.router) { client in
            let response = try await client.call(.get, "/test/slow", key: ServiceFixtures.admin.secret)
            #expect(response.status == 503)
            #expect(response.problemSlug == "timeout")
            #expect(response.string("detail")?.contains("0.05 s") == true)
        }
    }

    @Test("past the deadline, work that ignores cancellation is still answered, and its own errors stand")
    func workThatIgnoresCancellation() async throws {
        let service = try ServiceFixtures.service { $0.limits = ServiceLimits(requestTimeoutSeconds: 0.05) }
        let app = service.testApplication(operations: [
            TestOperations.stubborn, TestOperations.stubbornFailing,
        ])
        try await app.test(.router) { client in
            let finished = try await client.call(.get, "/test/stubborn", key: ServiceFixtures.admin.secret)
            #expect(finished.status == 200)
            #expect(finished.json?["finished"] == .bool(true))
            let failed = try await client.call(.get, "/test/stubborn-failing", key: ServiceFixtures.admin.secret)
            #expect(failed.status == 500)
            #expect(failed.problemSlug == "internal-error")
        }
    }

    @Test("operations that run long run on the worker threads; the others where the request arrived")
    func longOperationsRunOnWorkers() async throws {
        let app = OfferService(state: try ServiceFixtures.service().state).testApplication(operations: [
            TestOperations.whereItRuns(runsLong: true), TestOperations.whereItRuns(runsLong: false),
        ])
        try await app.test(.router) { client in
            let long = try await client.call(.get, "/test/long", key: ServiceFixtures.admin.secret)
            #expect(long.status == 200)
            #expect(long.json?["workers"] == .bool(true))
            let short = try await client.call(.get, "/test/short", key: ServiceFixtures.admin.secret)
            #expect(short.status == 200)
            #expect(short.json?["workers"] == .bool(false))
        }
        #expect(ServiceOperation.validateCampaign.runsLong && ServiceOperation.planCampaign.runsLong)
        #expect(ServiceOperation.all.filter(\.runsLong).map(\.id).sorted() == ["planCampaign", "validateCampaign"])
    }

    @Test("limits made in code that are out of range do not trap", arguments: [-1.0, 0, .nan, -.infinity])
    func oddTimeout(seconds: Double) async throws {
        let base = try ServiceFixtures.service()
        let state = ServiceState(
            apps: base.state.apps, apiKeys: base.state.apiKeys,
            limits: ServiceLimits(maxBodyBytes: -5, requestTimeoutSeconds: seconds), authentication: .required)
        let app = OfferService(state: state).testApplication(operations: [TestOperations.slow, TestOperations.nested])
        try await app.test(.router) { client in
            let key = ServiceFixtures.admin.secret
            let slow = try await client.call(.get, "/test/slow", key: key)
            #expect(slow.status == 503)
            let nested = try await client.call(.post, "/test/nested", body: "{}", key: key)
            #expect(nested.status == 413)
        }
    }

    @Test("an operation that throws an arbitrary error is a 500 internal-error that exposes nothing")
    func internalError() async throws {
        let service = try ServiceFixtures.service()
        try await service.testApplication(operations: [TestOperations.failing]).test(.router) { client in
            let response = try await client.call(
                .get, "/test/failing", key: ServiceFixtures.admin.secret,
                headers: [RequestHeader.requestId: "req-500"])
            #expect(response.status == 500)
            #expect(response.problemSlug == "internal-error")
            for secret in ["InternalFailure", "hunter2", "/srv/secret", "TestOperations", "Error"] {
                #expect(!response.text.contains(secret), "\(secret) in \(response.text)")
            }
            #expect(
                response.string("detail")
                    == "the service failed to answer; the log has the details under request id req-500")
            #expect(response.json?.keys == ["type", "title", "status", "detail", "requestId"])
        }
    }
}
