import ArgumentParser
import OfferJSON
import OfferRetentionAPI

/// `offerkit retention performance-test result REQUEST_ID`: Get Performance Test Results.
struct RetentionPerformanceTestResult: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "result",
        abstract: "Print a performance test's result; exit 0 PASS, 1 FAIL, 75 still PENDING.",
        discussion: """
            Text output: the result (PASS, FAIL or PENDING) on the first line, then the target, successRate, \
            numPending, responseTimes (average, p50, p90, p95, p99 in ms), failures by Apple's sendAttemptResult \
            (TIMED_OUT, UNSUCCESSFUL_HTTP_RESPONSE_CODE, …) and the configuration. --format json prints Apple's \
            PerformanceTestResultResponse with the environment and requestId.
            """)

    @Argument(help: "The requestId `performance-test start` printed (a UUID).")
    var requestId: String

    @Flag(help: "While PENDING, ask again every --poll-interval seconds (default 10), at most --max-wait (1800).")
    var wait = false

    @OptionGroup var waiting: PerformanceTestWaitOptions

    @OptionGroup var retention: RetentionOptions

    func run() async throws {
        let (interval, limit) = try PerformanceTestReport.waiting(
            wait: wait, pollInterval: waiting.pollInterval, maxWait: waiting.maxWait)
        let id = try RetentionIdentifier.uuid(requestId, field: "REQUEST_ID")
        let wait = wait
        let verbose = retention.verbose
        let result = try await retention.run { client in
            wait
                ? try await PerformanceTestReport.wait(
                    for: id, client: client, interval: interval, maxWait: limit, verbose: verbose)
                : try await client.performanceTestResult(requestId: id)
        }
        var members: [(key: String, value: JSONValue)] = [("requestId", .string(id))]
        if case .object(let apple) = result.json { members += apple }
        try retention.print(PerformanceTestReport.lines(result).joined(separator: "\n"), json: members)
        try PerformanceTestReport.finish(result, requestId: id)
    }
}
