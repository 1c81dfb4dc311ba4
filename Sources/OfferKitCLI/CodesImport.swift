import ArgumentParser
import Foundation
import OfferCodes
import OfferKitSigningCLI
import OfferLedger

/// `offerkit codes import`: Apple's one-time-use codes (the CSV App Store Connect returns),
/// attached to their offer in the ledger.
struct CodesImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Attach the one-time-use codes App Store Connect generated (its CSV) to their offer in the ledger.",
        discussion: """
            Reads the text/csv of GET /v1/{subscription|inAppPurchase}OfferCodeOneTimeUseCodes/{id}/values: one \
            code per line; a header line, CRLF, blank lines and surrounding whitespace are tolerated. Duplicate \
            and malformed lines are reported with their line numbers, and then nothing is imported. The import \
            is atomic.
            """)

    @OptionGroup var options: CampaignOptions

    @Option(help: "The offer's reference name.")
    var offer: String

    @Option(parsing: .unconditional, help: "Which of the offer's oneTimeUseCodes batches (1 = the first).")
    var batch: Int = 1

    @Option(name: .customLong("csv"), help: "The CSV file from App Store Connect, or '-' for stdin.")
    var csvPath: String

    @Flag(help: "Import even when the file holds a different number of codes than the batch asked Apple for.")
    var allowCountMismatch = false

    func run() async throws {
        if options.campaign == "-", csvPath == "-" {
            throw CLIError.usage("the campaign and --csv cannot both be read from stdin")
        }
        try await options.ledger.withWritable { ledger in try await run(ledger: ledger) }
    }

    private func run(ledger: CodeLedger) async throws {
        // Imported codes are refused when taken by the ledger's index: check that it matches the codes table.
        try await ledger.checkIntegrity(thorough: true)
        let campaign = try options.loadRecorded()
        let offerIndex = try CampaignOptions.offerIndex(named: offer, in: campaign)
        let definition = campaign.offers[offerIndex]
        let batches = definition.oneTimeUseCodes.count
        guard batches > 0 else {
            throw CLIError.usage(
                "--batch: offer \"\(offer)\" has no oneTimeUseCodes in the campaign: there is nothing to import into")
        }
        guard (1...batches).contains(batch) else {
            throw CLIError.usage(
                "--batch: offer \"\(offer)\" has \(batches) one-time-use batch\(batches == 1 ? "" : "es"); give 1"
                    + (batches == 1 ? "" : " to \(batches)"))
        }
        let oneTimeUse = definition.oneTimeUseCodes[batch - 1]
        let csv = AppleCodeCSV.parse(
            try InputFile.read(csvPath, limit: InputFile.tableLimit, what: "a code CSV file", accepting: .regularFile))
        let source = csvPath == "-" ? "stdin" : csvPath
        guard csv.problems.isEmpty else {
            let lines = csv.problems.map { "  \(source): \($0)" }
            throw CLIError.invalidInput(
                (["\(csv.problems.count) problem(s) in the CSV; nothing was imported:"] + lines).joined(separator: "\n")
            )
        }
        guard !csv.codes.isEmpty else { throw CLIError.invalidInput("\(source): no codes found; nothing was imported") }
        if csv.codes.count != oneTimeUse.count {
            let message =
                "\(source) holds \(csv.codes.count) codes, but the batch asked Apple for \(oneTimeUse.count): "
                + "is it the right file (and the right --batch)?"
            guard allowCountMismatch else {
                throw CLIError.invalidInput(message + " Nothing was imported; --allow-count-mismatch imports it anyway")
            }
            Output.warning(message)
        }
        let record = LedgerBatch(
            campaign: campaign.name, offer: offer, kind: .oneTimeUse, index: batch - 1,
            quarter: try options.day().quarter, redemptionLimit: 1, codeCount: oneTimeUse.count,
            expirationDate: oneTimeUse.expirationDate, environment: oneTimeUse.effectiveEnvironment)
        var progress = ProgressReporter("importing codes", total: csv.codes.count)
        defer { progress.finish() }
        if let taken = try await ledger.importOneTimeUseCodes(
            csv.codes, batch: record, campaign: campaign,
            progress: {
                progress.update($0)
            })
        {
            let shown = taken.taken.joined(separator: ", ") + (taken.count > taken.taken.count ? ", …" : "")
            throw CLIError.invalidInput(
                "\(taken.count) code(s) in \(source) are already in the ledger for app "
                    + "\(campaign.app.appAppleId) (\(shown)); nothing was imported")
        }
        Output.line("\(offer): one-time-use batch \(batch): imported \(csv.codes.count) codes")
    }
}
