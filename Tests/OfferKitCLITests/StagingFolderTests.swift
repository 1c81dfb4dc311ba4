import Foundation
import Testing

@testable import CLITestSupport

/// A file written whole or not at all is made in a staging folder beside it,
/// `.NAME.offerkit-XXXXXXXX.tmp/`; what a killed run leaves there is removed by the next run that
/// writes the same file, which says so (`codes ledger copy`'s kill test: CodesLedgerCopyTests).
@Suite("offerkit: outputs killed mid-run leave nothing for good")
struct StagingFolderTests {
    /// Leaves what a run killed while writing `name` in `files` leaves: its staging folder, with
    /// half a file in it, locked by nobody.
    static func abandon(_ name: String, in files: CampaignFiles) async throws -> String {
        let folder = files.file(".\(name).offerkit-0badc0de.tmp")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try Data("CODE1,https://".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        return folder
    }

    @Test("codes export --out removes what an interrupted export left, and says so")
    func exportRemovesAbandonedOutput() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        await #expect(try files.run("generate", CampaignFiles.example).status == 0)
        let abandoned = try await Self.abandon("codes.csv", in: files)
        let out = files.file("codes.csv")
        let export = try await files.run("export", CampaignFiles.example, ["--out", out])
        #expect(export.status == 0, "\(export)")
        #expect(
            export.stderr.contains(
                "removed \(abandoned), the unfinished output of an earlier run that was interrupted"), "\(export)")
        #expect(files.listing() == ["codes.csv", "ledger.sqlite"], "\(files.listing())")
        #expect(CampaignFiles.codes(ofCSV: files.text(of: out) ?? "").count > 1_000)
    }

    @Test("a file written whole (openapi --out) removes what an interrupted run left too")
    func atomicFileRemovesAbandonedOutput() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let abandoned = try await Self.abandon("openapi.json", in: files)
        let result = try await CLI.run(["openapi", "--out", files.file("openapi.json")], cwd: files.folder.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("removed \(abandoned)"), "\(result)")
        #expect(files.listing() == ["openapi.json"], "\(files.listing())")
    }
}
