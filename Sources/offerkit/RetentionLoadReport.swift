import Foundation
import OfferJSON

/// What `retention try-endpoint --count` measured, judged as Apple's performance test judges: a
/// success is a 200 with a valid `RealtimeResponseBody` within 700 ms.
struct RetentionLoadReport {
    let url: String
    let outcomes: [RetentionEndpointProbe.Outcome]
    let concurrency: Int
    let elapsed: Duration

    var successes: Int { outcomes.filter(\.isSuccess).count }

    /// Percent of requests that succeeded.
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

    /// Why requests failed, counted: `HTTP 401`, `invalid answer`, `over 700 ms`, `unreachable`.
    var failures: [(reason: String, count: Int)] {
        var counts: [String: Int] = [:]
        for outcome in outcomes where !outcome.isSuccess {
            let reason: String
            switch outcome.result {
            case .answered: reason = "over 700 ms"
            case .refused: reason = outcome.status == 200 ? "invalid answer" : "HTTP \(outcome.status ?? 0)"
            case .notVerified: reason = "not verified"
            case .unreachable: reason = "unreachable"
            }
            counts[reason, default: 0] += 1
        }
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
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
        let marks: [(String, Double)] = [
            ("p50", Self.percentile(sorted, 50)), ("p90", Self.percentile(sorted, 90)),
            ("p95", Self.percentile(sorted, 95)), ("p99", Self.percentile(sorted, 99)),
            ("slowest", sorted.last ?? 0),
        ]
        let seconds = elapsed.milliseconds / 1000
        let rate = String(format: "%.2f", successRate)
        switch format {
        case .text:
            Output.line(
                "requests \(outcomes.count), at most \(concurrency) at a time, in \(String(format: "%.2f", seconds)) s "
                    + "(\(String(format: "%.0f", Double(outcomes.count) / max(seconds, 0.001))) per second)")
            Output.line("successRate \(rate) % (a success: a 200 with a valid RealtimeResponseBody within 700 ms)")
            Output.line(
                "responseTimes "
                    + marks.map { "\($0.0) \(String(format: "%.1f", $0.1)) ms" }.joined(separator: ", "))
            Output.line(
                "decisions "
                    + (decisions.isEmpty ? "none" : decisions.map { "\($0.kind) \($0.count)" }.joined(separator: ", ")))
            Output.line(
                "failures "
                    + (failures.isEmpty ? "none" : failures.map { "\($0.reason) \($0.count)" }.joined(separator: ", ")))
        case .json:
            let value = JSONValue.object([
                ("requests", .integer(outcomes.count)), ("concurrency", .integer(concurrency)),
                ("seconds", .number(String(format: "%.3f", seconds))), ("successes", .integer(successes)),
                ("successRate", .number(rate)), ("thresholdMilliseconds", .integer(700)),
                (
                    "milliseconds",
                    .object(marks.map { ($0.0, JSONValue.number(String(format: "%.1f", $0.1))) })
                ),
                ("decisions", .object(decisions.map { ($0.kind, JSONValue.integer($0.count)) })),
                ("failures", .object(failures.map { ($0.reason, JSONValue.integer($0.count)) })),
            ])
            Output.line(value.text())
        }
        if let first = outcomes.first(where: { !$0.isSuccess }) {
            switch first.result {
            case .refused(let problem), .notVerified(let problem):
                throw CLIError.verificationFailed(
                    "\(outcomes.count - successes) requests failed; the first: \(problem)")
            case .unreachable(let problem) where successes == 0 && outcomes.allSatisfy({ $0.status == nil }):
                throw CLIError.io(path: url, reason: "could not be reached: \(problem)")
            default:
                throw CLIError.verificationFailed(
                    "\(outcomes.count - successes) of \(outcomes.count) requests did not succeed within 700 ms")
            }
        }
    }
}

extension Duration {
    /// The duration in milliseconds.
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
