import Foundation
import Testing

@testable import CLITestSupport

/// `offerkit codes import`: Apple's one-time-use codes (its CSV) attached to their batch, all or nothing.
@Suite("offerkit codes import")
struct CodesImportTests {
    static let gemPack = "Gem pack, launch"
    static let seasonPass = "Season pass"
    static let press = "Press"

    /// Three offers: one one-time-use batch of 3 codes, two one-time-use batches of 2, and
    /// custom codes only.
    static let offers = [
        CampaignFiles.offer(gemPack, oneTimeUse: [CampaignFiles.oneTimeUse(count: 3, expires: "P30D")]),
        CampaignFiles.offer(
            seasonPass,
            oneTimeUse: [
                CampaignFiles.oneTimeUse(count: 2, expires: "P60D"),
                CampaignFiles.oneTimeUse(count: 2, expires: "P90D", environment: "SANDBOX"),
            ]),
        CampaignFiles.offer(
            press,
            custom: [
                CampaignFiles.given(["PRESS27"], redemptionLimit: 5, expires: "P60D"),
                CampaignFiles.generated(count: 20, prefix: "P", length: 6),
            ]),
    ]

    static let campaign = CampaignFiles.campaign(name: "imports", offers: offers)

    /// What App Store Connect returns, with a header, CRLF, blank lines and padding.
    static let appleCSV = "Code\r\nAAAA1111\r\n\r\nBBBB2222\r\n  CCCC3333  \r\n\r\n"
    static let appleCodes = ["AAAA1111", "BBBB2222", "CCCC3333"]

    /// A folder with the campaign written to `imports.json`.
    static func setUp() throws -> (files: CampaignFiles, campaign: String) {
        let files = try CampaignFiles.make()
        return (files, try files.write(campaign, to: "imports.json"))
    }

    /// `codes import <campaign> --offer … --batch … --csv <csv written to a file>`.
    static func importCSV(
        _ csv: String, offer: String, batch: Int? = nil, files: CampaignFiles, campaign: String,
        name: String = "codes.csv"
    ) async throws -> CLIResult {
        let path = try files.write(csv, to: name)
        return try await files.run(
            "import", campaign, ["--offer", offer, "--csv", path] + (batch.map { ["--batch", String($0)] } ?? []))
    }

    @Test func appleCSVImportsAndAppearsInExport() async throws {
        let (files, campaign) = try Self.setUp()
        defer { files.remove() }
        let result = try await Self.importCSV(Self.appleCSV, offer: Self.gemPack, files: files, campaign: campaign)
        #expect(result.status == 0, "\(result)")
        #expect(result.output == "\(Self.gemPack): one-time-use batch 1: imported 3 codes")
        #expect(result.stderr.isEmpty, "\(result)")
        let export = try await files.run("export", campaign, ["--offer", Self.gemPack])
        #expect(export.status == 0, "\(export)")
        let records = CampaignFiles.csvRecords(export.stdout)
        #expect(records.dropFirst().map { $0[0] } == Self.appleCodes)
        #expect(records.dropFirst().allSatisfy { $0[2] == Self.gemPack && $0[3] == "2027-02-14" }, "\(records)")

        // From stdin, into the second batch of another offer.
        let stdin = try await files.run(
            "import", campaign, ["--offer", Self.seasonPass, "--batch", "2", "--csv", "-"],
            stdin: Data("SEASON01\nSEASON02\n".utf8))
        #expect(stdin.status == 0, "\(stdin)")
        #expect(stdin.output == "\(Self.seasonPass): one-time-use batch 2: imported 2 codes")
        // Sandbox codes are left out unless asked for: they do not work in the App Store.
        let production = try await files.run("export", campaign, ["--offer", Self.seasonPass, "--format", "json"])
        Expect.failure(production, status: 4, mentioning: ["no codes", "PRODUCTION", "--environment"])
        let season = try await files.run(
            "export", campaign, ["--offer", Self.seasonPass, "--format", "json", "--environment", "sandbox"])
        let rows = JSON.parse(season.stdout)?.array ?? []
        #expect(rows.compactMap { $0["code"]?.string } == ["SEASON01", "SEASON02"], "\(season)")
        #expect(
            rows.allSatisfy { $0["environment"] == .string("SANDBOX") && $0["expirationDate"] == .string("2027-04-15") }
        )
    }

    @Test func duplicateAndMalformedLinesImportNothing() async throws {
        let (files, campaign) = try Self.setUp()
        defer { files.remove() }
        let result = try await Self.importCSV(
            "DDDD1111\nEEEE2222\nDDDD1111\nbad code!\nFFFF3333\n", offer: Self.gemPack, files: files,
            campaign: campaign)
        Expect.failure(
            result, status: 4,
            mentioning: [
                "2 problem(s)", "codes.csv: line 3 repeats line 1", "codes.csv: line 4", "nothing was imported",
            ])
        let export = try await files.run("export", campaign)
        Expect.failure(export, status: 4, mentioning: ["no codes"])
    }

    @Test func codeAlreadyInTheLedgerImportsNothing() async throws {
        let (files, campaign) = try Self.setUp()
        defer { files.remove() }
        await #expect(
            try Self.importCSV(Self.appleCSV, offer: Self.gemPack, files: files, campaign: campaign).status == 0)
        let gemBefore = try await files.run("export", campaign, ["--offer", Self.gemPack])

        // Already imported for another offer of the app.
        let taken = try await Self.importCSV(
            "FFFF1111\nBBBB2222\n", offer: Self.seasonPass, files: files, campaign: campaign, name: "taken.csv")
        Expect.failure(taken, status: 4, mentioning: ["BBBB2222", CampaignFiles.appAppleId, "nothing was imported"])
        await Expect.failure(
            try files.run("export", campaign, ["--offer", Self.seasonPass]), status: 4, mentioning: ["no codes"])

        // Issued as a custom code by another campaign of the same app.
        await #expect(try files.run("generate", CampaignFiles.example).status == 0)
        let custom = try await Self.importCSV(
            "GGGG1111\nSPRING27\n", offer: Self.seasonPass, files: files, campaign: campaign, name: "custom.csv")
        Expect.failure(custom, status: 4, mentioning: ["SPRING27", "nothing was imported"])
        await Expect.failure(
            try files.run("export", campaign, ["--offer", Self.seasonPass]), status: 4, mentioning: ["no codes"])
        await #expect(try files.run("export", campaign, ["--offer", Self.gemPack]).stdout == gemBefore.stdout)
    }

    @Test func wrongOfferExits2ListingTheOffers() async throws {
        let (files, campaign) = try Self.setUp()
        defer { files.remove() }
        let result = try await Self.importCSV(Self.appleCSV, offer: "Gem pack", files: files, campaign: campaign)
        Expect.failure(
            result, status: 2,
            mentioning: [
                "--offer", "\"Gem pack\"", "\"\(Self.gemPack)\"", "\"\(Self.seasonPass)\"", "\"\(Self.press)\"",
            ])
    }

    @Test func batchOutOfRangeExits2() async throws {
        let (files, campaign) = try Self.setUp()
        defer { files.remove() }
        for (offer, batch) in [(Self.seasonPass, 3), (Self.seasonPass, 0), (Self.gemPack, 2), (Self.press, 1)] {
            let result = try await Self.importCSV(
                Self.appleCSV, offer: offer, batch: batch, files: files, campaign: campaign)
            Expect.failure(result, status: 2, mentioning: ["--batch", offer])
        }
        await Expect.failure(try files.run("export", campaign), status: 4, mentioning: ["no codes"])
    }

    @Test func importingTheSameBatchTwiceFails() async throws {
        let (files, campaign) = try Self.setUp()
        defer { files.remove() }
        await #expect(
            try Self.importCSV(Self.appleCSV, offer: Self.gemPack, files: files, campaign: campaign).status == 0)
        let before = try await files.run("export", campaign)
        let again = try await Self.importCSV(
            "HHHH1111\nHHHH2222\nHHHH3333\n", offer: Self.gemPack, files: files, campaign: campaign, name: "again.csv")
        Expect.failure(again, status: 4, mentioning: [Self.gemPack, "already has its 3 codes"])
        await #expect(try files.run("export", campaign).stdout == before.stdout)
    }
}
