import Foundation
import Testing

/// A campaign to hand codes out of, generated (and its gem codes imported) on one ledger
/// backend, for the tests of `codes export --recipients`, `claim` and `status`.
///
/// Offers: ``personal`` (custom codes PERS1 and PERS2, redeemable once each, no expiry),
/// ``shared`` (SHARE27, redeemable 3 times, expiring 2027-03-16), ``gems`` (6 one-time-use codes,
/// imported, expiring 2027-02-14) and ``later`` (5 one-time-use codes, not imported).
struct HandOut {
    static let personal = "Personal"
    static let shared = "Shared, 3 times"
    static let gems = "Gems"
    static let later = "Later"
    static let gemCodes = ["GEMA1111", "GEMB2222", "GEMC3333", "GEMD4444", "GEME5555", "GEMF6666"]
    static let backends = ["sqlite", "postgres"]

    let files: CampaignFiles
    let campaign: String
    let ledger: CampaignFiles.LedgerChoice

    /// The campaign on `backend`, or `nil` for PostgreSQL without a server.
    static func make(_ backend: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> HandOut? {
        guard let ledger = CLIPostgres.ledger(backend, sourceLocation: sourceLocation) else { return nil }
        let files = try CampaignFiles.make()
        let campaign = try files.write(
            CampaignFiles.campaign(
                name: "handout",
                offers: [
                    CampaignFiles.offer(personal, custom: [CampaignFiles.given(["PERS1", "PERS2"])]),
                    CampaignFiles.offer(
                        shared, custom: [CampaignFiles.given(["SHARE27"], redemptionLimit: 3, expires: "P60D")]),
                    CampaignFiles.offer(gems, oneTimeUse: [CampaignFiles.oneTimeUse(count: 6, expires: "P30D")]),
                    CampaignFiles.offer(later, oneTimeUse: [CampaignFiles.oneTimeUse(count: 5, expires: "P90D")]),
                ]), to: "handout.json")
        let handOut = HandOut(files: files, campaign: campaign, ledger: ledger)
        let generate = try await handOut.run("generate")
        #expect(generate.status == 0, "\(generate)", sourceLocation: sourceLocation)
        let csv = try files.write("Code\n" + gemCodes.joined(separator: "\n") + "\n", to: "gems.csv")
        let imported = try await handOut.run("import", ["--offer", gems, "--csv", csv])
        #expect(imported.status == 0, "\(imported)", sourceLocation: sourceLocation)
        return handOut
    }

    /// `offerkit codes SUBCOMMAND handout.json ARGUMENTS… --today 2027-01-15 --ledger …`.
    func run(_ subcommand: String, _ arguments: [String] = []) async throws -> CLIResult {
        try await files.run(subcommand, campaign, arguments, ledger: ledger)
    }

    /// `codes claim --offer OFFER --recipient RECIPIENT`.
    func claim(_ offer: String, _ recipient: String, _ arguments: [String] = []) async throws -> CLIResult {
        try await run("claim", ["--offer", offer, "--recipient", recipient] + arguments)
    }

    /// `codes export --offer OFFER --recipients FILE` with `people` written to the file.
    func export(_ offer: String, _ people: String, _ arguments: [String] = []) async throws -> CLIResult {
        let file = try files.write(people, to: "people-\(UUID().uuidString).csv")
        return try await run("export", ["--offer", offer, "--recipients", file] + arguments)
    }

    /// `codes status --format json`, parsed.
    func status(sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSON {
        let result = try await run("status", ["--format", "json"])
        #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
        return try #require(JSON.parse(result.stdout), "\(result)", sourceLocation: sourceLocation)
    }

    /// The status of one offer (`status()["offers"]` entry).
    func status(of offer: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSON {
        let status = try await status(sourceLocation: sourceLocation)
        return try #require(
            status["offers"]?.array?.first { $0["offer"]?.string == offer }, "\(status)",
            sourceLocation: sourceLocation)
    }

    /// The rows of a CSV export (header left out).
    static func rows(_ result: CLIResult) -> [[String]] { Array(CampaignFiles.csvRecords(result.stdout).dropFirst()) }

    /// An `assignedAt` value as a date (ISO 8601, UTC, milliseconds).
    static func date(_ text: String?) -> Date? {
        guard let text else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    func remove() { files.remove() }
}
