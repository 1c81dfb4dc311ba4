import Foundation
import Testing

@testable import CLITestSupport

/// Every relative link of README.md and of the guides in docs/ leads somewhere: a file or folder of the
/// repository, and a heading of a Markdown file when it names an anchor (see ``MarkdownLinks``).
@Suite("links of README.md and docs/")
struct DocumentLinkTests {
    @Test("every relative link names a file of the repository, and its #anchor a heading there")
    func everyLinkResolves() {
        let checked = MarkdownLinks(documents: ReadmeWalkthroughs.documents, root: CLI.packageRoot)
        #expect(checked.problems.isEmpty, "\(checked.problems.joined(separator: "\n"))")
        for document in ReadmeWalkthroughs.documents where document != "docs/formats.md" {
            #expect(checked.links.contains { $0.document == document }, "\(document) has no relative link")
        }
        #expect(checked.links.contains { $0.target.contains("#") }, "no anchor was checked")
    }

    @Test("a missing file, a missing anchor and a link out of the repository are each reported")
    func brokenLinksAreFound() throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("docs"), withIntermediateDirectories: false)
        try Data("# Guide\n\n## Run it\n\n## Run it\n".utf8).write(to: folder.url.appendingPathComponent("docs/a.md"))
        let readme = """
            # Title
            [ok](docs/a.md#run-it) [ok](docs/a.md#run-it-1) [ok](#title) [ok](docs) [web](https://example.com/x)
            [gone](docs/b.md) [no anchor](docs/a.md#walk-it) [out](../elsewhere.md)
            `[code](nowhere.md)` <!-- [comment](nowhere.md) -->
            ```sh
            echo "[fenced](nowhere.md)"
            ```
            """
        try Data(readme.utf8).write(to: folder.url.appendingPathComponent("README.md"))
        let checked = MarkdownLinks(documents: ["README.md", "docs/a.md"], root: folder.url)
        #expect(checked.links.count == 7, "\(checked.links.map(\.target))")
        #expect(
            checked.problems == [
                "README.md:3: docs/b.md names no file of the repository",
                "README.md:3: docs/a.md#walk-it: a.md has no heading with the anchor #walk-it",
                "README.md:3: ../elsewhere.md points outside the repository",
            ], "\(checked.problems)")
        #expect(
            MarkdownLinks.slug("Handing out codes: `export --recipients`, `claim`, `status`")
                == "handing-out-codes-export---recipients-claim-status")
    }
}
