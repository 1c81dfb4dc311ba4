import AppleTestChain
import Foundation
import InteropSupport
import Testing

@testable import CLITestSupport

/// `offerkit retention performance-test` end to end: the stand-in runs a real performance test against
/// the URL it is given, signing each request with its test chain, and the endpoint is a real
/// `offerkit serve` (``RetentionServe``): trusting the stand-in's root it answers every request, trusting
/// another root it refuses every one (401). ``RetentionEndToEndTests`` checks the answers themselves.
@Suite("offerkit retention performance-test (against offerkit serve)", .serialized)
struct RetentionPerformanceTestTests {
    typealias Fixture = RetentionFixture
    static var enabled: Bool {
        get async { await Fixture.available || Independent.isCI }
    }
    static let transaction = ["--original-transaction-id", "2000000900000001"]

    /// A stand-in whose real-time URL reaches `serve` (`deliverTo`: Apple requires https, the
    /// service is plain http on loopback), with a short test.
    static func prepare(_ fixture: Fixture, _ serve: RetentionServe, duration: Int = 300) async throws {
        try await fixture.standIn.configure(
            #"{"deliverTo": "\#(serve.origin)", "performanceTest": {"maxConcurrentRequests": 3, "totalRequests": 12, "totalDuration": \#(duration)}}"#
        )
        await #expect(
            try fixture.run(["url", "set", "https://retention.example.test/v1/retention/realtime"]).status == 0)
    }

    @Test(
        "start --wait: Apple's config and requestId, then PASS and exit 0; result prints it again",
        .enabled(Fixture.reason) { await enabled })
    func passing() async throws {
        let fixture = try await Fixture()
        defer { fixture.stop() }
        let serve = try await RetentionServe.trusting(fixture.standIn)
        defer { serve.terminate() }
        try await Self.prepare(fixture, serve)
        let run = try await fixture.run(
            ["performance-test", "start", "--wait", "--poll-interval", "1", "--format", "json"] + Self.transaction)
        #expect(run.status == 0, "\(run)")
        let json = try #require(run.json)
        #expect(json.keys == ["environment", "requestId", "config", "results"])
        #expect(
            json["config"]
                == JSON.parse(
                    #"{"maxConcurrentRequests":3,"totalRequests":12,"totalDuration":300,"responseTimeThreshold":700,"successRateThreshold":90}"#
                ))
        let requestId = try #require(json["requestId"]?.string)
        #expect(UUID(uuidString: requestId) != nil)
        let results = try #require(json["results"])
        #expect(results["result"]?.string == "PASS", "\(run)")
        #expect(results["successRate"]?.int == 100 && results["numPending"]?.int == 0)
        #expect(results["failures"] == JSON.parse("{}"))
        #expect(results["target"]?.string == "https://retention.example.test/v1/retention/realtime")
        #expect(results["responseTimes"]?.keys == ["average", "p50", "p90", "p95", "p99"])

        let result = try await fixture.run(["performance-test", "result", requestId])
        #expect(result.status == 0, "\(result)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "PASS")
        #expect(lines.contains("successRate 100 % (at least 90 % to pass)"), "\(result)")
        #expect(lines.contains("numPending 0") && lines.contains("failures none"), "\(result)")
        #expect(lines.contains { $0.hasPrefix("responseTimes average ") && $0.hasSuffix("(threshold 700 ms)") })
        let resultJSON = try await #require(
            try fixture.run(["performance-test", "result", requestId, "--format", "json"]).json)
        #expect(
            resultJSON.keys == [
                "environment", "requestId", "config", "target", "result", "successRate", "numPending", "responseTimes",
                "failures",
            ])
        await #expect(try fixture.standIn.app()["performanceTestPassed"] as? Bool == true)
    }

    @Test(
        "start without --wait prints the requestId first; result while running is exit 75; FAIL is exit 1",
        .enabled(Fixture.reason) { await enabled })
    func pendingAndFailing() async throws {
        let fixture = try await Fixture()
        defer { fixture.stop() }
        // Trusting another root than the stand-in's: every request is refused (401).
        let serve = try await RetentionServe(rootPEM: AppleTestChain.shared.rootPEM)
        defer { serve.terminate() }
        try await Self.prepare(fixture, serve, duration: 3000)
        let started = try await fixture.run(["performance-test", "start"] + Self.transaction)
        #expect(started.status == 0, "\(started)")
        let lines = started.output.split(separator: "\n").map(String.init)
        let requestId = try #require(lines.first)
        #expect(UUID(uuidString: requestId) != nil, "\(started)")
        #expect(
            Array(lines.dropFirst()) == [
                "maxConcurrentRequests 3", "totalRequests 12", "totalDuration 3000 ms", "responseTimeThreshold 700 ms",
                "successRateThreshold 90 %",
            ])
        let pending = try await fixture.run(["performance-test", "result", requestId])
        #expect(pending.status == 75, "\(pending)")
        #expect(pending.output.hasPrefix("PENDING"), "\(pending)")
        #expect(pending.stderr.contains("is still running"), "\(pending)")
        let running = try await fixture.run(["performance-test", "start"] + Self.transaction)
        #expect(running.status == 4 && running.stderr.contains("4000213 ExistingPerformanceTestRunError"), "\(running)")

        let failed = try await fixture.run([
            "performance-test", "result", requestId, "--wait", "--poll-interval", "1", "--format", "json",
        ])
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.json?["result"]?.string == "FAIL")
        #expect(failed.json?["failures"] == JSON.parse(#"{"UNSUCCESSFUL_HTTP_RESPONSE_CODE": 12}"#), "\(failed)")
        #expect(
            failed.stderr.contains("the performance test failed: success rate 0 %, at least 90 % needed"), "\(failed)")
    }

    @Test("what OfferKit and Apple refuse", .enabled(Fixture.reason) { await enabled })
    func refusals() async throws {
        let fixture = try await Fixture()
        defer { fixture.stop() }
        let noURL = try await fixture.run(["performance-test", "start"] + Self.transaction)
        #expect(noURL.status == 4 && noURL.stderr.contains("RealtimeUrlNotFoundError"), "\(noURL)")
        let unknown = try await fixture.run(["performance-test", "result", UUID().uuidString])
        #expect(unknown.status == 4 && unknown.stderr.contains("4040018 PerformanceTestRunNotFoundError"), "\(unknown)")
        for (arguments, status, text) in [
            (
                ["performance-test", "start", "--environment", "production"] + Self.transaction, Int32(2),
                "sandbox only"
            ),
            (["performance-test", "start", "--poll-interval", "1"] + Self.transaction, 2, "go with --wait"),
            (
                ["performance-test", "start", "--wait", "--poll-interval", "0"] + Self.transaction, 2,
                "--poll-interval must be"
            ),
            (["performance-test", "start", "--original-transaction-id", "2000-0009"], 4, "decimal digits"),
            (["performance-test", "result", "not-a-uuid"], 4, "REQUEST_ID is invalid"),
        ] {
            let result = try await fixture.run(arguments)
            #expect(result.status == status, "\(result)")
            #expect(result.stderr.contains(text), "\(result)")
        }
        await #expect(try fixture.requests("POST /inApps/v1/messaging/performanceTest") == 1, "only the first was sent")
    }
}
