import Foundation
import Testing

@testable import CLITestSupport

/// The commands reach the process's streams, environment and arguments only through `CommandContext`,
/// so that a command run in-process (`EntryPoint.run(_:context:)`, most CLI tests) prints, reads and
/// behaves as it does in a process of its own.
@Suite("offerkit: every command reads and writes through its CommandContext")
struct CommandContextTests {
    /// What reaches the process's own: its descriptors 0 to 2, its environment, its arguments, `print`.
    static let processOwn =
        #"FileHandle\.standard|ProcessInfo\.processInfo\.environment|CommandLine\.|STD(IN|OUT|ERR)_FILENO|(^|[^.\w])print\("#

    /// The files that may: the context's default, and the entry points that start a process's command.
    static let allowed: Set<String> = [
        "OfferKitSigningCLI/CommandContext.swift", "OfferKitSigningCLI/CommandLineRun.swift",
        "OfferKitSigningCLI/SigningEntryPoint.swift", "OfferKitCLI/OfferKitCommand.swift",
    ]

    @Test("no command reads the process's stdin, environment or arguments, or writes its stdout or stderr")
    func commandsUseTheirContext() throws {
        let processOwn = try Regex(Self.processOwn)
        let sources = CLI.packageRoot.appendingPathComponent("Sources")
        var found: [String] = []
        for module in ["OfferKitCLI", "OfferKitSigningCLI"] {
            let folder = sources.appendingPathComponent(module)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            where name.hasSuffix(".swift") && !Self.allowed.contains("\(module)/\(name)") {
                let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    guard !code.hasPrefix("//"), !code.contains("func print("), code.contains(processOwn)
                    else { continue }
                    // `print(...)` as a method of the command itself (`try print(verified)`) is not Swift's.
                    if code.contains("try print(") || code.contains("Self.print(") { continue }
                    found.append("\(module)/\(name):\(number + 1): \(code)")
                }
            }
        }
        #expect(found.isEmpty, "use CommandContext.current instead:\n\(found.joined(separator: "\n"))")
    }

    /// In-process, help wraps to the context's `COLUMNS`, kept to 40 columns at the least.
    @Test("help wraps to the context's COLUMNS, at least 40")
    func helpWrapsToTheContextsColumns() async throws {
        var help: [String: String] = [:]
        for columns in ["0", "40", "200"] {
            let run = try await CLI.run(["codes", "plan", "--help"], environment: ["COLUMNS": columns])
            #expect(run.status == 0 && run.stdout.contains("USAGE:"), "\(run)")
            help[columns] = run.stdout
        }
        #expect(help["0"] == help["40"], "COLUMNS=0 wraps as 40 does")
        #expect(help["200"] != help["40"], "COLUMNS=200 wraps wider than 40")
    }
}
