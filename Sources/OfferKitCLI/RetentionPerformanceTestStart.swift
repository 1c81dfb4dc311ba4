import ArgumentParser
import OfferJSON
import OfferKitSigningCLI
import OfferRetentionAPI

/// `offerkit retention performance-test start`: Initiate Performance Test.
struct RetentionPerformanceTestStart: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Start Apple's performance test of the sandbox real-time URL; print its requestId and configuration.",
        discussion: """
            Apple calls the sandbox real-time URL concurrently, with requests for the original transaction's \
            subscription, and measures the answers. Text output: the requestId on the first line, then Apple's \
            configuration (maxConcurrentRequests, totalRequests, totalDuration, responseTimeThreshold, \
            successRateThreshold). With --wait the result follows, asked for every --poll-interval seconds \
            (default 10) for at most --max-wait seconds (default 1800), and the exit code says it: 0 PASS, 1 FAIL, \
            75 still PENDING. Runs in the sandbox only.
            """)

    @Option(
        name: .customLong("original-transaction-id"),
        help: "A sandbox original transaction ID of an active auto-renewable subscription.")
    var originalTransactionId: String

    @Flag(help: "Wait for the result and exit with it (0 PASS, 1 FAIL, 75 still PENDING).")
    var wait = false

    @OptionGroup var waiting: PerformanceTestWaitOptions

    @OptionGroup var retention: RetentionOptions

    func run() async throws {
        let (interval, limit) = try PerformanceTestReport.waiting(
            wait: wait, pollInterval: waiting.pollInterval, maxWait: waiting.maxWait)
        guard try retention.resolvedEnvironment() == .sandbox else {
            throw CLIError.usage(
                "the performance test runs in the sandbox only (Apple): leave out --environment production")
        }
        let id = try RetentionIdentifier.originalTransactionId(
            originalTransactionId, field: "--original-transaction-id")
        let wait = wait
        let verbose = retention.verbose
        let retention = retention
        let (started, result) = try await retention.run { client in
            let started = try await client.initiatePerformanceTest(originalTransactionId: id)
            guard wait else { return (started, nil as PerformanceTestResultResponse?) }
            do {
                let result = try await PerformanceTestReport.wait(
                    for: started.requestId, client: client, interval: interval, maxWait: limit, verbose: verbose)
                return (started, result)
            } catch {
                // The test runs at Apple whatever happens here: its requestId is the way to its result.
                try Self.print(started, result: nil, retention)
                throw PerformanceTestOutcome.resultUnread(requestId: started.requestId, error: error)
            }
        }
        try Self.print(started, result: result, retention)
        if let result { try PerformanceTestReport.finish(result, requestId: started.requestId) }
    }

    /// The requestId on the first line, then Apple's configuration, then the result when there is one.
    private static func print(
        _ started: PerformanceTestResponse, result: PerformanceTestResultResponse?, _ retention: RetentionOptions
    ) throws {
        var lines = [started.requestId] + PerformanceTestReport.lines(started.config)
        var members: [(key: String, value: JSONValue)] = [
            ("requestId", .string(started.requestId)), ("config", started.config.json),
        ]
        if let result {
            lines += ["result"] + PerformanceTestReport.lines(result, withConfig: false).map { "  " + $0 }
            members.append(("results", result.json))
        }
        try retention.print(lines.joined(separator: "\n"), json: members)
    }
}
