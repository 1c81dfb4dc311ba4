import Foundation
import NIOConcurrencyHelpers
import OfferConnect
import OfferConnectAPI
import OfferKitSigningCLI

/// What `codes apply` and `codes fetch` show while they run and when they end: the progress line
/// (on a terminal), `--verbose` request lines and notes on stderr, the summary on stdout.
final class ApplyReporter: Sendable {
    private let verbose: Bool
    private let progress: NIOLockedValueBox<ProgressReporter>
    /// The context of the command that made the reporter: events come from the client's tasks and threads.
    private let context: CommandContext

    init(verbose: Bool, label: String) {
        self.verbose = verbose
        let context = CommandContext.current
        self.context = context
        progress = NIOLockedValueBox(ProgressReporter(label, total: nil, step: 1, context: context))
    }

    func handle(_ event: ApplyEvent) {
        switch event {
        case .exchange(let exchange):
            guard verbose else { return }
            say(exchange.line)
        case .progress(let done, let total):
            progress.withLockedValue { reporter in
                if reporter.total != total {
                    reporter = ProgressReporter(reporter.label, total: total, step: 1, context: context)
                }
                reporter.update(done)
            }
        case .refused(let refusal):
            say(
                "App Store Connect refused \(refusal.resource): "
                    + refusal.errors.map(\.summary).joined(separator: "; "))
        case .note(let text):
            guard verbose else { return }
            say(text)
        }
    }

    /// Clears the progress line.
    func finish() { progress.withLockedValue { $0.finish() } }

    private func say(_ text: String) {
        progress.withLockedValue { reporter in
            reporter.finish()
            context.error.write(Data("offerkit: \(text)\n".utf8))
        }
    }

    /// The closing lines of a run.
    static func text(_ summary: ApplySummary, campaign: String, fetchHint: String) -> String {
        func n(_ value: Int) -> String { ProgressReporter.grouped(value) }
        // `codes fetch` plans nothing: its summary is about codes only.
        var lines =
            summary.planned == 0
            ? ["campaign \(campaign): Apple's codes of the created one-time-use batches"]
            : [
                "campaign \(campaign): \(n(summary.planned)) App Store Connect resources planned",
                "  created \(n(summary.created)), already there \(n(summary.alreadyThere)), refused "
                    + "\(n(summary.refused.count)), skipped (their offer was not created) \(n(summary.skipped)), "
                    + "unfinished \(n(summary.unfinished))",
            ]
        for refusal in summary.refused {
            lines.append("  refused: \(refusal.resource): " + refusal.errors.map(\.summary).joined(separator: "; "))
        }
        for (resource, codes) in summary.imported {
            lines.append("  one-time-use codes imported: \(resource): \(n(codes)) codes")
        }
        for problem in summary.importProblems { lines.append("  one-time-use codes not imported: \(problem)") }
        if !summary.codesPending.isEmpty {
            lines.append(
                "  one-time-use codes not produced by App Store Connect yet: "
                    + summary.codesPending.joined(separator: ", ") + "; run later: \(fetchHint)")
        }
        let seconds =
            Double(summary.duration.components.seconds) + Double(summary.duration.components.attoseconds) / 1e18
        var last = "  \(n(summary.requests)) requests in \(String(format: "%.1f", seconds)) s"
        if let rateLimit = summary.rateLimit {
            last += "; rate limit: \(n(rateLimit.remaining)) of \(n(rateLimit.limit)) requests left this hour"
        }
        lines.append(last)
        if let stop = summary.stoppedBy { lines.append("  stopped: \(stop.localizedDescription)") }
        return lines.joined(separator: "\n")
    }
}
