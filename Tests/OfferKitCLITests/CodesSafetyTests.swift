import Foundation
import Testing

@testable import CLITestSupport

/// Regressions from the review of `offerkit codes`: what a user could otherwise hand out by mistake.
@Suite("offerkit codes: safety")
struct CodesSafetyTests {
    static func campaign(given code: String, redemptionLimit: Int, oneTimeUseCount: Int = 3) -> String {
        CampaignFiles.campaign(
            name: "safety",
            offers: [
                CampaignFiles.offer(
                    "Launch", oneTimeUse: [CampaignFiles.oneTimeUse(count: oneTimeUseCount)],
                    custom: [CampaignFiles.given([code], redemptionLimit: redemptionLimit)])
            ])
    }

    @Test func aRecordedBatchThatChangedInTheFileIsRefusedByGenerateAndPlan() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let path = try files.write(Self.campaign(given: "SPRING27", redemptionLimit: 1), to: "safety.json")
        await #expect(try files.run("generate", path).status == 0)
        _ = try files.write(Self.campaign(given: "SPRING28", redemptionLimit: 5, oneTimeUseCount: 4), to: "safety.json")
        for command in ["generate", "plan"] {
            let result = try await files.run(command, path)
            Expect.failure(
                result, status: 4,
                mentioning: [
                    "changed since the ledger recorded it", "redemptionLimit 5 in the file, 1 recorded",
                    "its codes differ", "count 4 in the file, 3 recorded",
                ])
            #expect(result.stdout.isEmpty, "\(result)")
        }
        let export = try await files.run("export", path)
        #expect(CampaignFiles.codes(ofCSV: export.stdout) == ["SPRING27"], "the ledger keeps what was recorded")
    }

    @Test func importRefusesAFileWithAnotherCountUnlessAllowed() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let path = try files.write(Self.campaign(given: "SPRING27", redemptionLimit: 1), to: "safety.json")
        let csv = try files.write("AAAA1111\nBBBB2222\n", to: "values.csv")
        let refused = try await files.run("import", path, ["--offer", "Launch", "--csv", csv])
        Expect.failure(refused, status: 4, mentioning: ["2 codes", "asked Apple for 3", "--allow-count-mismatch"])
        let none = try await files.run("export", path)
        #expect(!CampaignFiles.codes(ofCSV: none.stdout).contains("AAAA1111"), "nothing was imported")
        let allowed = try await files.run(
            "import", path, ["--offer", "Launch", "--csv", csv, "--allow-count-mismatch"])
        #expect(allowed.status == 0 && allowed.stderr.contains("asked Apple for 3"), "\(allowed)")
    }

    @Test func outputFilesAreOwnerOnly() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let out = files.file("codes.txt")
        await #expect(try files.run("generate", nil, ["--count", "10", "--out", out], ledger: .none).status == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func theLedgerIsOwnerOnlyAndAnExposedOneIsWarnedAbout() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let path = try files.write(Self.campaign(given: "SPRING27", redemptionLimit: 1), to: "safety.json")
        let created = try await files.run("generate", path)
        #expect(created.status == 0 && !created.stderr.contains("chmod"), "\(created)")
        #expect(FileMode.of(files.ledger).map { $0 & 0o777 } == 0o600)

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: files.ledger)
        for command in ["export", "validate", "plan", "generate"] {
            let result = try await files.run(command, path)
            #expect(result.status == 0, "\(result)")
            #expect(
                result.stderr.contains("warning: ledger \(files.ledger) is readable by group or others (mode 644)")
                    && result.stderr.contains("run chmod 600 on it"), "\(command): \(result)")
        }
    }
}
