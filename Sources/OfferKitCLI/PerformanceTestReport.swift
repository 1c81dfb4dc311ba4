import Foundation
import OfferJSON
import OfferKitSigningCLI
import OfferRetentionAPI
import OfferRetentionClient

/// How `performance-test start` and `result` print Apple's answers, wait for a result, and end.
enum PerformanceTestReport {
    /// The configuration's lines: `maxConcurrentRequests 10`, …
    static func lines(_ config: PerformanceTestConfig) -> [String] {
        [
            "maxConcurrentRequests \(config.maxConcurrentRequests)", "totalRequests \(config.totalRequests)",
            "totalDuration \(config.totalDuration) ms", "responseTimeThreshold \(config.responseTimeThreshold) ms",
            "successRateThreshold \(config.successRateThreshold) %",
        ]
    }

    /// The result's lines, the result first (`PASS`); the configuration last unless `withConfig` is false.
    static func lines(_ result: PerformanceTestResultResponse, withConfig: Bool = true) -> [String] {
        var lines = [result.result.rawValue]
        if let target = result.target { lines.append("target \(target)") }
        if let rate = result.successRate {
            lines.append(
                "successRate \(rate) %"
                    + (result.config.map { " (at least \($0.successRateThreshold) % to pass)" } ?? ""))
        }
        if let pending = result.numPending { lines.append("numPending \(pending)") }
        if let times = result.responseTimes {
            lines.append(
                "responseTimes average \(times.average) ms, p50 \(times.p50) ms, p90 \(times.p90) ms, p95 \(times.p95) ms, "
                    + "p99 \(times.p99) ms"
                    + (result.config.map { " (threshold \($0.responseTimeThreshold) ms)" } ?? ""))
        }
        lines.append(
            "failures "
                + (result.failures.isEmpty
                    ? "none" : result.failures.map { "\($0.reason) \($0.count)" }.joined(separator: ", ")))
        if withConfig, let config = result.config { lines += Self.lines(config).map { "config \($0)" } }
        return lines
    }

    /// Asks for the result every `interval` until it is not `PENDING` or `maxWait` is over.
    static func wait(
        for requestId: String, client: RetentionClient, interval: Duration, maxWait: Duration, verbose: Bool
    ) async throws -> PerformanceTestResultResponse {
        let deadline = ContinuousClock.now + maxWait
        while true {
            let result = try await client.performanceTestResult(requestId: requestId)
            guard result.result == .pending, ContinuousClock.now + interval <= deadline else { return result }
            if verbose {
                CommandContext.current.error.write(
                    Data(
                        "offerkit: performance test \(requestId) PENDING (numPending \(result.numPending.map(String.init) ?? "?")); asking again in \(interval.components.seconds) s\n"
                            .utf8))
            }
            try await Task.sleep(for: interval)
        }
    }

    /// Ends as the result says: `PASS` returns, `FAIL` throws exit 1, `PENDING` exit 75.
    static func finish(_ result: PerformanceTestResultResponse, requestId: String) throws {
        switch result.result {
        case .pass: return
        case .fail:
            var reasons: [String] = []
            if let rate = result.successRate, let config = result.config, rate < config.successRateThreshold {
                reasons.append("success rate \(rate) %, at least \(config.successRateThreshold) % needed")
            }
            if !result.failures.isEmpty {
                reasons.append("failures " + result.failures.map { "\($0.reason) \($0.count)" }.joined(separator: ", "))
            }
            throw PerformanceTestOutcome.failed(
                (reasons.isEmpty ? "Apple's result is FAIL" : reasons.joined(separator: "; "))
                    + "; fix the endpoint (answers within the threshold, a valid RealtimeResponseBody) and start a new test"
            )
        case .pending:
            throw PerformanceTestOutcome.pending(
                "the performance test \(requestId) is still running (numPending \(result.numPending.map(String.init) ?? "?")): "
                    + "ask again with `offerkit retention performance-test result \(requestId)` (add --wait to wait)")
        case .other(let text):
            throw RetentionAPIError.unexpectedAnswer(
                operation: "Get Performance Test Results", status: 200,
                reason: "result \"\(text)\" (Apple documents PENDING, PASS and FAIL)")
        }
    }

    /// `--poll-interval` and `--max-wait`, checked.
    static func waiting(wait: Bool, pollInterval: Int?, maxWait: Int?) throws -> (Duration, Duration) {
        if !wait, pollInterval != nil || maxWait != nil {
            throw CLIError.usage("--poll-interval and --max-wait go with --wait")
        }
        let interval = pollInterval ?? 10
        let limit = maxWait ?? 1800
        guard (1...600).contains(interval) else {
            throw CLIError.usage("--poll-interval must be 1 to 600 seconds, not \(interval)")
        }
        guard (1...86_400).contains(limit) else {
            throw CLIError.usage("--max-wait must be 1 to 86400 seconds, not \(limit)")
        }
        return (.seconds(interval), .seconds(limit))
    }
}
