import Foundation
import Testing

@testable import CLITestSupport

/// `offerkit codes generate` killed with SIGKILL mid-run: an `--out` file never appears
/// partially, and a batch being recorded leaves nothing in the ledger.
@Suite("offerkit codes generate, killed mid-run")
struct CodesCrashTests {
    @Test func plainOutFileNeverAppearsPartially() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let out = files.file("codes.txt")
        let run = try BackgroundRun(
            ["codes", "generate", "--count", "5000000", "--length", "12", "--out", out], in: files)
        // Kill the moment the temporary output is there (its staging folder, then the file in it);
        // the time limit is only a safety net (all 5,000,000 codes take a few seconds, which a poll on
        // a busy test pool could miss whole).
        let writing = await run.killWhen(upTo: 30) {
            files.listing().contains { name in
                name.hasPrefix(".codes.txt.") && (Self.size(of: files.file(name)) ?? 0) > 0
            }
        }
        let killed = await run.kill()
        #expect(writing, "the temporary output file never appeared: \(files.listing())\n\(run.stderr)")
        try #require(killed, "offerkit finished before it was killed, so nothing was tested\n\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "a partial \(out) exists after SIGKILL")
        #expect(files.listing().allSatisfy { $0.hasPrefix(".codes.txt.") && $0.hasSuffix(".tmp") })
    }

    /// Two offers: a small given batch first, then nearly the quarter's limit of generated codes.
    static func bigCampaign(bulkCount: Int) -> String {
        CampaignFiles.campaign(
            name: "big",
            offers: [
                CampaignFiles.offer("Early", custom: [CampaignFiles.given(["EARLYBIRD"])]),
                CampaignFiles.offer("Bulk", custom: [CampaignFiles.generated(count: bulkCount, length: 12)]),
            ])
    }

    @Test func killedBatchLeavesNothingAndEarlierBatchesStay() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        // A campaign recorded before, by another run.
        let small = try files.write(
            CampaignFiles.campaign(
                name: "small", offers: [CampaignFiles.offer("Small", custom: [CampaignFiles.generated(count: 100)])]),
            to: "small.json")
        await #expect(try files.run("generate", small).status == 0)
        let smallBefore = try await files.run("export", small)
        #expect(smallBefore.status == 0, "\(smallBefore)")

        // 999,000 + 1 + 100 production codes: within the 1,000,000 per quarter.
        let big = try files.write(Self.bigCampaign(bulkCount: 999_000), to: "big.json")
        let run = try BackgroundRun(
            ["codes", "generate", big, "--ledger", files.ledger, "--today", CampaignFiles.today], in: files)
        // "Early" is committed once its line is out; the journal that appears after it is Bulk's
        // (the ledger uses a rollback journal; -wal is accepted should it move to WAL).
        let recording = await run.poll(upTo: 60) {
            run.stdout.contains("Early: custom-code batch 1: 1 code, recorded\n")
                && ["-journal", "-wal"].contains { FileManager.default.fileExists(atPath: files.ledger + $0) }
        }
        let killed = await run.kill()
        #expect(recording, "the Bulk batch never started recording\n\(run.stdout)\(run.stderr)")
        // Stop here if it was not killed mid-batch: the checks below would export a million codes.
        try #require(killed, "offerkit finished before it was killed, so nothing was tested\n\(run.stdout)")
        try #require(!run.stdout.contains("Bulk:"), "the Bulk batch was recorded before the kill\n\(run.stdout)")

        let bulk = try await files.run("export", big, ["--offer", "Bulk"])
        Expect.failure(bulk, status: 4, mentioning: ["no codes"])
        let early = try await files.run("export", big, ["--offer", "Early"])
        #expect(early.status == 0, "\(early)")
        #expect(CampaignFiles.codes(ofCSV: early.stdout) == ["EARLYBIRD"])
        let smallAfter = try await files.run("export", small)
        #expect(smallAfter.stdout == smallBefore.stdout, "the earlier campaign's codes changed")

        // The ledger knows no Bulk batch: the same campaign with a small Bulk batch records it now,
        // while Early stays as it was.
        let retry = try files.write(Self.bigCampaign(bulkCount: 5), to: "big-retry.json")
        let again = try await files.run("generate", retry)
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("Early: custom-code batch 1: 1 code, already recorded, unchanged\n"), "\(again)")
        #expect(again.stdout.contains("Bulk: custom-code batch 1: 5 codes, recorded\n"), "\(again)")
        let all = try await files.run("export", retry)
        #expect(CampaignFiles.codes(ofCSV: all.stdout).count == 6, "\(all)")
    }

    static func size(of path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
    }
}
