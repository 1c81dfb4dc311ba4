import ArgumentParser
import Foundation
import Testing

@testable import CLITestSupport
@testable import OfferKitCLI

/// Every command's `--help`, read in-process from the command tree: it offers only options that
/// apply, shows required options as required, describes the key the command uses, and points at
/// nothing outside the product.
@Suite("offerkit --help is true")
struct HelpTests {
    /// A command, by its path under `offerkit`.
    struct Command: CustomStringConvertible {
        let path: [String]
        let type: any ParsableCommand.Type
        /// The help text, one line per option (no wrapping). Made once: ArgumentParser checks every
        /// command's declaration again each time it builds a help text in a debug build, which cost
        /// the suite a few percent of its CPU time when each test asked anew.
        let help: String

        init(path: [String], type: any ParsableCommand.Type) {
            self.path = path
            self.type = type
            help = OfferKitCommand.helpMessage(for: type, columns: 10_000)
        }

        var description: String { (["offerkit"] + path).joined(separator: " ") }
        var name: String { path.joined(separator: " ") }

        /// The usage line, after `USAGE: `.
        var usage: String {
            let line = help.split(separator: "\n").first { $0.hasPrefix("USAGE: ") } ?? ""
            return String(line.dropFirst("USAGE: ".count))
        }

        /// The options the help lists, with their help text: `(["--ledger"], "The ledger: …")`.
        var options: [(names: [String], text: String)] {
            var result: [(names: [String], text: String)] = []
            var inOptions = false
            for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasSuffix(":"), !line.hasPrefix(" ") {
                    inOptions = line == "OPTIONS:"
                    continue
                }
                // A help text too long for its column continues on the lines below, indented.
                if inOptions, line.hasPrefix("   "), !result.isEmpty {
                    result[result.count - 1].text += " " + line.trimmingCharacters(in: .whitespaces)
                    continue
                }
                guard inOptions, line.hasPrefix("  -") else { continue }
                let words = line.split(separator: " ", omittingEmptySubsequences: true)
                let names = words.filter { $0.hasPrefix("-") }.map { String($0.trimmingCharacters(in: [","])) }
                result.append((names, line.trimmingCharacters(in: .whitespaces)))
            }
            return result
        }
    }

    /// Every command under `offerkit`, depth first.
    static let commands: [Command] = {
        func walk(_ type: any ParsableCommand.Type, _ path: [String]) -> [Command] {
            [Command(path: path, type: type)]
                + type.configuration.subcommands.flatMap { sub in
                    walk(sub, path + [sub.configuration.commandName ?? String(describing: sub)])
                }
        }
        return walk(OfferKitCommand.self, [])
    }()

    /// The commands that call App Store Connect with an App Store Connect API key.
    static let connectCommands: Set<String> = [
        "token connect-api", "codes apply", "codes fetch", "codes deactivate", "codes lookup apps",
        "codes lookup subscription-groups", "codes lookup subscriptions", "codes lookup in-app-purchases",
        "codes lookup price-points",
    ]

    /// The commands that can do without a ledger (`--no-ledger`).
    static let ledgerOptional: Set<String> = ["codes validate", "codes plan"]

    @Test("the tree is read: every command has a help text with a usage line")
    func treeIsRead() {
        #expect(Self.commands.count > 50, "\(Self.commands.map(\.name))")
        for command in Self.commands {
            #expect(!command.usage.isEmpty, "\(command): no usage line")
        }
    }

    @Test("no help points at the developers' notes outside the product")
    func noReferencesOutside() {
        for command in Self.commands {
            // Joined here so that this file is not itself a pointer outside the repository.
            for word in [".." + "/shared", "/work" + "/shared", "SPEC.md", "SPEC §"] {
                #expect(!command.help.contains(word), "\(command) mentions \(word)")
            }
        }
    }

    @Test("every `offerkit …` command the sources name (messages, help, docs comments) exists")
    func namedCommandsExist() throws {
        let names = Set(Self.commands.map(\.name))
        let groups = Set(Self.commands.filter { !$0.type.configuration.subcommands.isEmpty }.map(\.name))
        // Prose, not a command: "This offerkit was built with its sign commands only".
        let prose: Set<Substring> = ["was"]
        var unknown: [String] = []
        var checked = 0
        let sources = CLI.packageRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: /offerkit ([a-z][a-z-]*(?: [a-z][a-z-]*)*)/) {
                let words = match.1.split(separator: " ")
                guard let first = words.first, !prose.contains(first) else { continue }
                checked += 1
                // Down the tree while the path so far has subcommands; after a leaf come its arguments.
                var path = ""
                for word in words where groups.contains(path) {
                    path = path.isEmpty ? String(word) : path + " " + word
                    guard names.contains(path) else {
                        unknown.append("\(file.lastPathComponent): offerkit \(path)")
                        break
                    }
                }
            }
        }
        #expect(checked > 100, "only \(checked) commands named in Sources: is the scan reading them?")
        #expect(unknown.isEmpty, "commands that do not exist: \(unknown)")
    }

    @Test("App Store Connect commands describe an App Store Connect API key, never an In-App Purchase key")
    func connectCommandsDescribeTheirKey() {
        let found = Self.commands.filter { Self.connectCommands.contains($0.name) }
        #expect(found.count == Self.connectCommands.count, "\(found)")
        for command in found {
            #expect(command.help.contains("AuthKey_<ID>.p8"), "\(command)\n\(command.help)")
            for wrong in ["In-App Purchase key", "SubscriptionKey_"] {
                #expect(!command.help.contains(wrong), "\(command) mentions \(wrong)\n\(command.help)")
            }
            // A token for App Store Connect is the team's: a bundle ID only picks a config file's entry.
            for option in command.options where option.names.contains("--bundle-id") {
                #expect(
                    option.text.contains("With --config") && !option.text.contains("The app's bundle ID"), "\(command)")
            }
        }
        // And the other way round: an In-App Purchase key's commands do not call it an API key file.
        for command in Self.commands where command.options.contains(where: { $0.names.contains("--key-file") }) {
            guard !Self.connectCommands.contains(command.name) else { continue }
            #expect(!command.help.contains("AuthKey_<ID>.p8, from"), "\(command)")
        }
    }

    @Test("--no-ledger is offered only where a command can do without a ledger")
    func noLedgerOnlyWhereItApplies() {
        for command in Self.commands {
            let offers = command.options.contains { $0.names.contains("--no-ledger") }
            #expect(offers == Self.ledgerOptional.contains(command.name), "\(command): --no-ledger \(offers)")
        }
    }

    @Test("key inspect takes the key alone: no issuer ID, the key ID optional")
    func keyInspectTakesTheKeyAlone() async throws {
        let inspect = try #require(Self.commands.first { $0.name == "key inspect" })
        #expect(!inspect.options.contains { $0.names.contains("--issuer-id") }, "\(inspect.help)")
        #expect(inspect.usage.contains("[--key-id <key-id>]"), "\(inspect.usage)")
    }

    @Test("required options are shown as required: outside brackets in the usage line")
    func requiredOptionsAreShownAsRequired() {
        var marked = 0
        for command in Self.commands {
            for option in command.options {
                guard let name = option.names.first(where: { $0.hasPrefix("--") }) else { continue }
                // Every option listed is in the usage line (a written-out usage cannot drop one), or
                // stands for one of the `<options>` of a long one.
                guard let depth = Self.bracketDepth(of: name, in: command.usage) else {
                    let covered = ["--help", "--version"].contains(name) || command.usage.contains("<options>")
                    #expect(covered, "\(command): \(name) is not in the usage line \(command.usage)")
                    #expect(!option.text.contains("(required)"), "\(command): required \(name) is not in the usage")
                    continue
                }
                if option.text.contains("(required)") {
                    marked += 1
                    #expect(depth == 0, "\(command): \(name) is required but bracketed: \(command.usage)")
                }
            }
        }
        #expect(marked >= 2, "the sign commands' --offer-identifier")
    }

    /// How deep in `[…]` the option `name` stands in `usage` (`nil`: not there).
    static func bracketDepth(of name: String, in usage: String) -> Int? {
        var depth = 0
        var index = usage.startIndex
        while index < usage.endIndex {
            let rest = usage[index...]
            let atWordStart = index == usage.startIndex || [" ", "["].contains(usage[usage.index(before: index)])
            if atWordStart, rest.hasPrefix(name + " ") || rest.hasPrefix(name + "]") || rest == name {
                return depth
            }
            if usage[index] == "[" { depth += 1 }
            if usage[index] == "]" { depth -= 1 }
            index = usage.index(after: index)
        }
        return nil
    }
}

/// What the help says is what the commands do.
@Suite("offerkit options that cannot apply are refused")
struct InapplicableOptionTests {
    @Test("--issuer-id with --individual is refused: an individual key's tokens carry no issuer")
    func issuerWithIndividualKey() async throws {
        let result = try await CLI.run(["token", "connect-api", "--individual"] + DemoKey.connectFlags)
        Expect.failure(result, status: 2, mentioning: ["--issuer-id does not go with --individual"])
    }

    @Test("--no-ledger is an unknown option where a ledger is needed")
    func noLedgerWhereALedgerIsNeeded() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let required = ["claim": ["--offer", "o", "--recipient", "r"], "import": ["--offer", "o", "--csv", "c.csv"]]
        for command in ["claim", "status", "export", "generate", "import", "apply", "fetch", "deactivate"] {
            let arguments = (required[command] ?? (command == "deactivate" ? ["--offer", "o"] : [])) + ["--no-ledger"]
            let result = try await files.run(command, CampaignFiles.example, arguments, ledger: .none)
            Expect.failure(result, status: 2, mentioning: ["--no-ledger"])
        }
        #expect(files.listing().isEmpty, "\(files.listing())")
    }
}
