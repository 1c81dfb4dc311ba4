import Foundation
import OfferKitSigningCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-line progress indicator on stderr for long runs, shown only when stderr is a terminal
/// (pipelines and logs get nothing but the final messages).
struct ProgressReporter {
    let label: String
    let total: Int?
    private let enabled: Bool
    private var lastDraw: UInt64 = 0
    private var drawn = false
    private let step: Int
    /// Where the line is drawn: the stderr of the command that made the reporter.
    private let context: CommandContext

    /// - Parameters:
    ///   - enabled: `nil` = when stderr is a terminal.
    ///   - step: redraw only when the count is a multiple of it (a power of two); 1 for slow items.
    ///   - context: the command's streams (the task's own unless given).
    init(
        _ label: String, total: Int?, enabled: Bool? = nil, step: Int = 1024, context: CommandContext = .current
    ) {
        self.context = context
        self.label = label
        self.total = total
        self.enabled = enabled ?? context.errorIsTerminal
        self.step = max(step, 1)
    }

    /// Reports `done` items; redraws at most ten times a second. Cheap enough to call per item.
    mutating func update(_ done: Int) {
        guard enabled, done & (step - 1) == 0 || done == total else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastDraw >= 100_000_000 || done == total else { return }
        lastDraw = now
        draw(done)
    }

    /// Clears the line (call once, when the work ends or fails).
    mutating func finish() {
        guard enabled, drawn else { return }
        context.error.write(Data("\r\u{1B}[2K".utf8))
        drawn = false
    }

    private mutating func draw(_ done: Int) {
        var text = "\r\u{1B}[2Kofferkit: \(label) \(Self.grouped(done))"
        if let total, total > 0 {
            text += "/\(Self.grouped(total)) (\(done * 100 / total)%)"
        }
        context.error.write(Data(text.utf8))
        drawn = true
    }

    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return out
    }
}
