import Foundation
import OfferJSON
import OfferKitSigningCLI

/// What `retention try-endpoint --count` measured, judged as Apple's performance test judges: a
/// success is a 200 with a valid `RealtimeResponseBody` within 700 ms
/// (``RetentionEndpointProbe/threshold``). Its JSON uses the names of Apple's
/// `PerformanceTestResultResponse` (as `retention performance-test result --format json` prints it)
/// for the same things: `successRate`, `responseTimes` (`average`, `p50`, `p90`, `p95`, `p99`),
/// `failures`, and its configuration's `totalRequests`, `maxConcurrentRequests`,
/// `responseTimeThreshold` and `totalDuration` (milliseconds).
struct RetentionLoadReport {
    let url: String
    let outcomes: [RetentionEndpointProbe.Outcome]
    /// Requests at a time: at most the number of requests.
    let concurrency: Int
    let elapsed: Duration

    /// ``RetentionEndpointProbe/threshold`` in milliseconds: 700.
    static var thresholdMilliseconds: Int { Int(RetentionEndpointProbe.threshold.milliseconds.rounded()) }

    var successes: Int { outcomes.filter(\.isSuccess).count }

    /// The share of successes in percent, rounded down to hundredths: one failure in 100,000 reads
    /// 99.99, never 100.00.
    var successRate: Double {
        outcomes.isEmpty ? 0 : (Double(successes) * 10_000 / Double(outcomes.count)).rounded(.down) / 100
    }

    /// The response times of the requests that got an answer, in milliseconds, sorted.
    var times: [Double] {
        outcomes.filter { $0.status != nil }.map(\.elapsed.milliseconds).sorted()
    }

    /// The nearest-rank percentile of `sorted`.
    static func percentile(_ sorted: [Double], _ percent: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((percent / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// Why a request failed: `over 700 ms` (a valid answer, late), `timed out` (no whole answer
    /// within `--timeout`), `unreachable`, `HTTP 401` (any status but 200), `invalid answer`, `not verified`.
    static func reason(_ outcome: RetentionEndpointProbe.Outcome) -> String {
        switch outcome.result {
        case .answered: "over \(thresholdMilliseconds) ms"
        case .refused: outcome.status == 200 ? "invalid answer" : "HTTP \(outcome.status ?? 0)"
        case .notVerified: "not verified"
        case .unreachable: "unreachable"
        case .timedOut: "timed out"
        }
    }

    /// The failed requests counted by ``reason(_:)``, most first (then by name).
    var failures: [(reason: String, count: Int)] {
        var counts: [String: Int] = [:]
        for outcome in outcomes where !outcome.isSuccess { counts[Self.reason(outcome), default: 0] += 1 }
        return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The valid answers by decision (`promotionalOffer`, `default`, …).
    var decisions: [(kind: String, count: Int)] {
        var counts: [String: Int] = [:]
        for outcome in outcomes {
            if case .answered(let kind, _, _) = outcome.result { counts[kind, default: 0] += 1 }
        }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Prints the report; throws the exit status when a request failed (5 when none got an answer).
    func print(format: OutputFormat) throws {
        let sorted = times
        let average = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
        let marks: [(String, Double)] = [
            ("average", average), ("p50", Self.percentile(sorted, 50)), ("p90", Self.percentile(sorted, 90)),
            ("p95", Self.percentile(sorted, 95)), ("p99", Self.percentile(sorted, 99)),
            ("slowest", sorted.last ?? 0),
        ]
        let seconds = elapsed.milliseconds / 1000
        let rate = String(format: "%.2f", successRate)
        let failureList = failures.map { "\($0.reason) \($0.count)" }.joined(separator: ", ")
        switch format {
        case .text:
            Output.line(
                "requests \(outcomes.count), at most \(concurrency) at a time, in \(String(format: "%.2f", seconds)) s "
                    + "(\(String(format: "%.0f", Double(outcomes.count) / max(seconds, 0.001))) per second)")
            Output.line(
                "successRate \(rate) % (a success: a 200 with a valid RealtimeResponseBody within "
                    + "\(Self.thresholdMilliseconds) ms)")
            Output.line(
                "responseTimes "
                    + marks.map { "\($0.0) \(String(format: "%.1f", $0.1)) ms" }.joined(separator: ", "))
            Output.line(
                "decisions "
                    + (decisions.isEmpty ? "none" : decisions.map { "\($0.kind) \($0.count)" }.joined(separator: ", ")))
            Output.line("failures " + (failures.isEmpty ? "none" : failureList))
        case .json:
            let value = JSONValue.object([
                ("totalRequests", .integer(outcomes.count)), ("maxConcurrentRequests", .integer(concurrency)),
                ("totalDuration", .integer(Int(elapsed.milliseconds.rounded()))), ("successes", .integer(successes)),
                ("successRate", .number(rate)), ("responseTimeThreshold", .integer(Self.thresholdMilliseconds)),
                (
                    "responseTimes",
                    .object(marks.map { ($0.0, JSONValue.number(String(format: "%.1f", $0.1))) })
                ),
                ("decisions", .object(decisions.map { ($0.kind, JSONValue.integer($0.count)) })),
                ("failures", .object(failures.map { ($0.reason, JSONValue.integer($0.count)) })),
            ])
            Output.line(value.text())
        }
        guard let first = outcomes.first(where: { !$0.isSuccess }) else { return }
        let failed = "\(outcomes.count - successes) of \(outcomes.count) requests failed (\(failureList))"
        switch first.result {
        case .refused(let problem), .notVerified(let problem):
            throw CLIError.verificationFailed("\(failed); the first: \(problem)")
        case .unreachable(let problem), .timedOut(let problem):
            // Exit 5 only when no request got an answer.
            if outcomes.allSatisfy({ $0.status == nil }) {
                throw CLIError.io(path: url, reason: "could not be reached: \(failed); the first: \(problem)")
            }
            throw CLIError.verificationFailed("\(failed); the first: \(problem)")
        case .answered:
            throw CLIError.verificationFailed(
                "\(failed); the first answered in \(String(format: "%.1f", first.elapsed.milliseconds)) ms, over "
                    + "Apple's \(Self.thresholdMilliseconds) ms")
        }
    }
}

extension Duration {
    /// The duration in milliseconds.
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
