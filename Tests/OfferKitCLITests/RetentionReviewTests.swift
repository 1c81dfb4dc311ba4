import Foundation
import InteropSupport
import Testing

@testable import CLITestSupport

/// `offerkit retention` after the hostile review of issue 18: regressions against the App Store
/// Server API stand-in.
@Suite("offerkit retention after the hostile review: regressions", .serialized)
struct RetentionReviewTests {
    typealias Fixture = RetentionFixture
    static var enabled: Bool {
        get async { await Fixture.available || Independent.isCI }
    }

    @Test(
        "start --wait that cannot read the result still prints the started test's requestId",
        .enabled(Fixture.reason) { await enabled })
    func startedTestIsNamedWhenWaitingFails() async throws {
        let fixture = try await Fixture()
        defer { fixture.stop() }
        // Nothing listens where the test's requests go: each is a SOCKET_ISSUE, the test a FAIL.
        try await fixture.standIn.configure(
            #"{"deliverTo": "http://127.0.0.1:9", "performanceTest": {"maxConcurrentRequests": 1, "totalRequests": 2, "totalDuration": 200}}"#
        )
        await #expect(
            try fixture.run(["url", "set", "https://retention.example.test/v1/retention/realtime"]).status == 0)
        try await fixture.standIn.setFaults(
            #"{"script": [{"method": "GET", "pathPrefix": "/inApps/v1/messaging/performanceTest/result", "fault": "server-error", "times": 10}]}"#
        )
        let run = try await fixture.run([
            "performance-test", "start", "--wait", "--poll-interval", "1", "--original-transaction-id",
            "2000000900000001",
        ])
        #expect(run.status == 5, "\(run)")
        await #expect(try fixture.requests("POST /inApps/v1/messaging/performanceTest") == 1)
        // The test runs at Apple, and a second start is refused while it does: its requestId is the
        // only way to its result, so it is printed as `start` without --wait prints it.
        let requestId = try #require(run.output.split(separator: "\n").first.map(String.init), "\(run)")
        #expect(UUID(uuidString: requestId) != nil, "\(run)")
        #expect(run.stderr.contains("offerkit retention performance-test result \(requestId)"), "\(run)")
        #expect(!run.stderr.contains("Run the same command again"), "a second start would be refused: \(run)")
        try await fixture.standIn.setFaults("{}")
        let result = try await fixture.run(["performance-test", "result", requestId, "--wait", "--poll-interval", "1"])
        #expect(result.status == 1 && result.output.hasPrefix("FAIL"), "\(result)")
    }
}
