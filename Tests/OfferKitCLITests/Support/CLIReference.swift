import ArgumentParser
import Foundation

@testable import OfferKitCLI

/// The committed CLI reference (docs/cli/offerkit.md, written by docs/generate-cli-reference with
/// swift-argument-parser's generate-docc-reference plugin) held against the command tree as it is now,
/// read in-process through `--experimental-dump-help`: one heading per command, in the tree's order,
/// and under it the command's abstract and discussion and every shown argument's names and help.
struct CLIReference {
    /// A command as `--experimental-dump-help` describes it (the part the reference shows).
    struct Command: Decodable {
        var superCommands: [String]?
        var commandName: String
        var abstract: String?
        var discussion: String?
        var subcommands: [Command]?
        var arguments: [Argument]?

        /// The reference's heading title: `offerkit.codes.apply`.
        var title: String { ((superCommands ?? []) + [commandName]).joined(separator: ".") }
    }

    /// An argument, option or flag as `--experimental-dump-help` describes it.
    struct Argument: Decodable {
        struct Name: Decodable {
            var kind: String
            var name: String
        }

        var shouldDisplay: Bool
        var names: [Name]?
        var abstract: String?
        var discussion: String?
    }

    private struct ToolInfo: Decodable {
        var command: Command
    }

    /// The path of the committed reference, from the package root.
    static let path = "docs/cli/offerkit.md"

    /// What is wrong with `reference` (empty when it describes every command as the tree has it).
    let problems: [String]
    /// The commands checked, depth first.
    let commands: [Command]

    /// Reads the command tree of `offerkit` in-process.
    static func tree() throws -> Command {
        let dump: String
        do {
            _ = try OfferKitCommand.parseAsRoot(["--experimental-dump-help"])
            dump = ""
        } catch {
            dump = OfferKitCommand.fullMessage(for: error)
        }
        return try JSONDecoder().decode(ToolInfo.self, from: Data(dump.utf8)).command
    }

    init(reference: String, tree: Command) {
        func flatten(_ command: Command) -> [Command] {
            [command] + (command.subcommands ?? []).flatMap(flatten)
        }
        let commands = flatten(tree)
        self.commands = commands
        var problems: [String] = []

        // The sections of the reference: each heading's title and the text up to the next heading.
        var sections: [(title: String, text: String)] = []
        for line in reference.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#"), let space = line.firstIndex(of: " ") {
                sections.append((String(line[line.index(after: space)...]), ""))
            } else if !sections.isEmpty {
                sections[sections.count - 1].text += line + "\n"
            }
        }
        let titles = sections.map(\.title)
        if titles != commands.map(\.title) {
            let missing = commands.map(\.title).filter { !titles.contains($0) }
            let stale = titles.filter { title in !commands.contains { $0.title == title } }
            problems.append(
                "the headings are not the commands in order; missing: \(missing), no such command: \(stale)")
        }

        for command in commands {
            guard let section = sections.first(where: { $0.title == command.title }) else { continue }
            var expected = [command.abstract, command.discussion].compactMap { $0 }
            for argument in command.arguments ?? [] where argument.shouldDisplay {
                expected += [argument.abstract, argument.discussion].compactMap { $0 }
                expected += (argument.names ?? []).filter { $0.kind == "long" }.map { "--\($0.name)" }
            }
            for text in expected where !text.isEmpty && !section.text.contains(text) {
                problems.append("\(command.title): the reference lacks \"\(text.prefix(80))\"")
            }
        }
        self.problems = problems
    }
}
