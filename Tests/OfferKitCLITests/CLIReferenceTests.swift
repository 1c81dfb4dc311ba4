import Foundation
import Testing

@testable import CLITestSupport

/// docs/cli/offerkit.md cannot go stale: it lists every command of the tree as it is now, with every
/// help text (see ``CLIReference``). docs/generate-cli-reference rewrites it; `.ci/docs` also compares
/// it byte for byte with what the plugin writes.
@Suite("the CLI reference in docs/cli")
struct CLIReferenceTests {
    @Test("the committed reference describes every command, option and help text of offerkit")
    func referenceIsCurrent() throws {
        let url = CLI.packageRoot.appendingPathComponent(CLIReference.path)
        let reference = try String(contentsOf: url, encoding: .utf8)
        let checked = CLIReference(reference: reference, tree: try CLIReference.tree())
        #expect(checked.commands.count > 50, "\(checked.commands.map(\.title))")
        #expect(
            checked.problems.isEmpty,
            "\(checked.problems.joined(separator: "\n"))\nRun docs/generate-cli-reference and commit the result.")
    }

    @Test("a missing command, a command that is gone and a changed help text are each reported")
    func staleReferenceIsFound() throws {
        let tree = try CLIReference.tree()
        let url = CLI.packageRoot.appendingPathComponent(CLIReference.path)
        let reference = try String(contentsOf: url, encoding: .utf8)
        // Drop `codes claim`'s section, add a command that does not exist, change a help text.
        let lines = reference.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "### offerkit.codes.claim"))
        let end = try #require(lines[(start + 1)...].firstIndex { $0.hasPrefix("#") })
        var stale = (lines[..<start] + lines[end...]).joined(separator: "\n")
        stale += "\n## offerkit.gone\n\nA command that was removed.\n"
        stale = stale.replacingOccurrences(
            of: "*The subscription's product ID.*", with: "*The product.*")
        let checked = CLIReference(reference: stale, tree: tree)
        #expect(
            checked.problems.contains {
                $0.contains("missing: [\"offerkit.codes.claim\"]")
                    && $0.contains("no such command: [\"offerkit.gone\"]")
            }, "\(checked.problems)")
        #expect(
            checked.problems.contains { $0.hasPrefix("offerkit.sign.promotional-offer: the reference lacks") },
            "\(checked.problems)")
    }
}
