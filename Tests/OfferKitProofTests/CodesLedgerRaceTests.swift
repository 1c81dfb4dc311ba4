import Foundation
import InteropSupport
import Testing

@testable import CLITestSupport

/// `offerkit codes generate` processes started at the same moment on one ledger.
@Suite("offerkit codes: concurrent runs on one ledger", .processRuns)
struct CodesLedgerRaceTests {
    /// A campaign of one offer whose one given code has `redemptionLimit` redemptions.
    static func redemptions(_ name: String, _ redemptionLimit: Int) -> String {
        CampaignFiles.campaign(
            name: name,
            offers: [
                CampaignFiles.offer(
                    "Offer \(name)",
                    custom: [CampaignFiles.given(["\(name.uppercased())1"], redemptionLimit: redemptionLimit)])
            ])
    }

    /// A campaign of one offer with a sandbox one-time-use batch of `count` codes.
    static func sandbox(_ name: String, _ count: Int) -> String {
        CampaignFiles.campaign(
            name: name,
            offers: [
                CampaignFiles.offer(
                    "Offer \(name)", oneTimeUse: [CampaignFiles.oneTimeUse(count: count, environment: "SANDBOX")])
            ])
    }

    /// Runs `codes generate` for every campaign file at once; returns the results in that order.
    static func generateAtOnce(
        _ paths: [String], in files: CampaignFiles, ledger: CampaignFiles.LedgerChoice = .folder
    ) async -> [CLIResult] {
        await withTaskGroup(of: (Int, CLIResult).self) { group in
            for index in paths.indices {
                group.addTask {
                    do {
                        return (index, try await files.run("generate", paths[index], ledger: ledger))
                    } catch {
                        return (index, CLIResult(arguments: [paths[index]], status: -1, stdout: "", stderr: "\(error)"))
                    }
                }
            }
            var results: [Int: CLIResult] = [:]
            for await (index, result) in group { results[index] = result }
            return paths.indices.compactMap { results[$0] }
        }
    }

    /// Three campaigns of 400,000 production redemptions each: two fit in Apple's 1,000,000 per
    /// quarter, so exactly one run must fail (at validation, or when recording if the others
    /// committed after it was validated), and the ledger must never hold more than the limit.
    @Test(arguments: ["sqlite", "postgres"])
    func racingRunsNeverRecordMoreProductionCodesThanTheQuarterAllows(backend: String) async throws {
        for round in 0..<3 {
            guard let ledger = CLIPostgres.ledger(backend) else { return }
            let files = try CampaignFiles.make()
            defer { files.remove() }
            let names = ["north", "south", "east"]
            let paths = try names.map { try files.write(Self.redemptions($0, 400_000), to: "\($0).json") }
            let results = await Self.generateAtOnce(paths, in: files, ledger: ledger)
            #expect(results.map(\.status).sorted() == [0, 0, 4], "round \(round): \(results)")
            for failed in results where failed.status == 4 {
                Expect.failure(failed, status: 4, mentioning: ["2027-Q1", "1,000,000", "800,000", "1,200,000"])
            }
            // What the ledger holds: the two recorded campaigns, 800,000 in all.
            var exported = 0
            for path in paths {
                let export = try await files.run("export", path, ledger: ledger)
                if export.status == 0 { exported += CampaignFiles.codes(ofCSV: export.stdout).count }
            }
            #expect(exported == 2, "round \(round)")
            let probe = try files.write(Self.redemptions("probe", 200_001), to: "probe.json")
            await Expect.failure(
                try files.run("validate", probe, ledger: ledger), status: 4,
                mentioning: ["the ledger holds 800,000 more", "2027-Q1"])
        }
    }

    /// The last of the quarter: the ledger already holds 900,000 production redemptions, and two
    /// runs of 60,000 each start at once. Each fits in the 100,000 left, both together do not:
    /// exactly one records, the other fails (at validation, or when recording if the winner
    /// committed after it was validated), and the ledger ends at 960,000, with exactly 40,000 left.
    @Test(arguments: ["sqlite", "postgres"])
    func twoRunsRacingForTheLastOfTheQuarterNeverBothRecord(backend: String) async throws {
        for round in 0..<4 {
            guard let ledger = CLIPostgres.ledger(backend) else { return }
            let files = try CampaignFiles.make()
            defer { files.remove() }
            let base = try files.write(Self.redemptions("base", 900_000), to: "base.json")
            await #expect(try files.run("generate", base, ledger: ledger).status == 0, "round \(round)")
            let paths = try ["left", "right"].map { try files.write(Self.redemptions($0, 60_000), to: "\($0).json") }
            let results = await Self.generateAtOnce(paths, in: files, ledger: ledger)
            #expect(results.map(\.status).sorted() == [0, 4], "round \(round): \(results)")
            for failed in results where failed.status == 4 {
                Expect.failure(
                    failed, status: 4, mentioning: ["2027-Q1", "1,000,000", "60,000", "960,000", "1,020,000"])
            }
            // Only the winner's code is in the ledger.
            var exported: [String] = []
            for path in paths {
                let export = try await files.run("export", path, ledger: ledger)
                if export.status == 0 { exported += CampaignFiles.codes(ofCSV: export.stdout) }
            }
            let winner = zip(["LEFT1", "RIGHT1"], results).filter { $0.1.status == 0 }.map(\.0)
            #expect(exported == winner, "round \(round)")
            // 40,000 are left: a campaign of 40,000 fits, one of 40,001 does not.
            let fits = try files.write(Self.redemptions("fits", 40_000), to: "fits.json")
            await #expect(try files.run("validate", fits, ledger: ledger).status == 0, "round \(round)")
            let over = try files.write(Self.redemptions("over", 40_001), to: "over.json")
            await Expect.failure(
                try files.run("validate", over, ledger: ledger), status: 4,
                mentioning: ["the ledger holds 960,000 more", "2027-Q1"])
        }
    }

    /// Four campaigns of 3,000 sandbox codes: three fit in the 10,000 per quarter.
    @Test(arguments: ["sqlite", "postgres"])
    func racingRunsNeverRecordMoreSandboxCodesThanTheQuarterAllows(backend: String) async throws {
        for round in 0..<2 {
            guard let ledger = CLIPostgres.ledger(backend) else { return }
            let files = try CampaignFiles.make()
            defer { files.remove() }
            let paths = try (0..<4).map {
                try files.write(Self.sandbox("sandbox\($0)", 3_000), to: "sandbox\($0).json")
            }
            let results = await Self.generateAtOnce(paths, in: files, ledger: ledger)
            #expect(results.map(\.status).sorted() == [0, 0, 0, 4], "round \(round): \(results)")
            for failed in results where failed.status == 4 {
                Expect.failure(failed, status: 4, mentioning: ["sandbox", "2027-Q1", "10,000", "9,000"])
            }
            let probe = try files.write(Self.sandbox("probe", 1_001), to: "probe.json")
            await Expect.failure(
                try files.run("validate", probe, ledger: ledger), status: 4, mentioning: ["the ledger holds 9,000 more"]
            )
        }
    }

    /// Six runs create the same new ledger at once: all succeed, and every campaign is in it.
    @Test func racingRunsOnANewLedgerAllSucceed() async throws {
        for round in 0..<3 {
            let files = try CampaignFiles.make()
            defer { files.remove() }
            let paths = try (0..<6).map { try files.write(Self.redemptions("new\($0)", 1), to: "new\($0).json") }
            let results = await Self.generateAtOnce(paths, in: files)
            #expect(results.allSatisfy { $0.status == 0 }, "round \(round): \(results)")
            for (index, path) in paths.enumerated() {
                let export = try await files.run("export", path)
                #expect(CampaignFiles.codes(ofCSV: export.stdout) == ["NEW\(index)1"], "round \(round): \(export)")
            }
            #expect(FileMode.of(files.ledger) == 0o600)
        }
    }
}
