import ArgumentParser
import Foundation
import OfferCodes
import OfferJSON
import OfferKitSigningCLI
import OfferLedger

/// `offerkit codes export`: what marketing hands out, rendered from templates.
struct CodesExport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract:
            "Export a campaign's codes from the ledger, or hand out one code per recipient: CSV, JSON or messages.",
        discussion: """
            Every code carries its redemption link \
            https://apps.apple.com/redeem?ctx=offercodes&id=<APP_APPLE_ID>&code=<CODE> (URL-encoded). Formats: \
            csv (code, url, offer, expirationDate), json, messages (CSV rows of code, language and a ready message; \
            each offer is named by its displayName in the message's language, never its referenceName). Languages: \
            \(CodeExporter.languages.joined(separator: ", ")). --templates DIR uses your own Mustache templates (same \
            file names as templates/codes/; missing ones fall back to the built-in ones).

            Without --recipients, every code of the campaign is listed and nothing is handed out. With \
            --recipients FILE, each recipient gets a code of one offer, recorded in the ledger: the same \
            recipient always gets the same code (a repeated export is safe), a one-time-use code never goes to \
            two recipients, and a list the offer has too few codes left for records nothing and writes nothing \
            (the codes are recorded 20,000 recipients per transaction; a run stopped midway keeps those it \
            recorded, and running it again prints the same codes). \
            Rows then add the recipient and assignedAt. --reprint prints codes already handed out, without \
            handing out more.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable, EnumeratedValue {
        case csv, json, messages
    }

    @OptionGroup var options: CampaignOptions

    @Option(
        help: """
            Only this offer (its reference name). Default: every offer of the campaign; with --recipients, the \
            campaign's only offer.
            """)
    var offer: String?

    @Option(help: "csv, json or messages.")
    var format: Format = .csv

    @Option(help: "Messages: the language (\(CodeExporter.languages.joined(separator: ", "))).")
    var language: String = "en"

    @Option(
        help: """
            Hand out one code of the offer to each recipient of this CSV file: lines name or name,language (the \
            name is the recipient id), or after a header line recipient,name,language (any order; name and \
            language optional) one recipient id per line. Quote a value with a comma: "Wang, Fang",zh-Hans.
            """)
    var recipients: String?

    @Flag(
        help: """
            Print codes already handed out, without handing out any: with --recipients, those recipients' codes \
            (recipients without one are listed on stderr); without, every code handed out in the campaign.
            """)
    var reprint = false

    /// App Store Connect's two environments, or `all` of them; read in any case.
    enum Environment: String, ExpressibleByArgument, CaseIterable, EnumeratedValue {
        case production = "PRODUCTION"
        case sandbox = "SANDBOX"
        case all

        /// The one environment chosen; `nil` for `all`.
        var codeEnvironment: CodeEnvironment? { CodeEnvironment(rawValue: rawValue) }
    }

    @Option(
        help: """
            Which codes: PRODUCTION (default), SANDBOX or all (not with --recipients), in any case. Sandbox codes do \
            not work in the App Store.
            """)
    var environment: Environment = .production

    @Option(help: "A folder of your own templates.")
    var templates: String?

    @Option(help: "Write the export to this file (whole or not at all) instead of stdout.")
    var out: String?

    @Flag(help: "Replace --out if it exists.")
    var force = false

    func validate() throws {
        if recipients != nil, environment == .all {
            throw ValidationError(
                "--environment all does not go with --recipients: each recipient gets a code of one environment; "
                    + "choose production or sandbox")
        }
    }

    func run() async throws {
        let campaign = try options.loadRecorded()
        if let offer { _ = try CampaignOptions.offerIndex(named: offer, in: campaign) }
        // Only handing out writes the ledger; listing and reprinting open it read-only.
        let body: (CodeLedger?) async throws -> Void = { ledger in
            try await ledger?.checkIntegrity()
            try await run(campaign: campaign, ledger: ledger)
        }
        if recipients != nil && !reprint {
            try await options.ledger.withExisting(body)
        } else {
            try await options.ledger.withExistingForReading(body)
        }
    }

    private func run(campaign: Campaign, ledger: CodeLedger?) async throws {
        let exportFormat: ExportFormat =
            switch format {
            case .csv: .csv
            case .json: .json
            case .messages: .messages(language: language)
            }
        let source = templates.map { ExportTemplates.directory(URL(fileURLWithPath: $0)) } ?? .builtIn
        let exporter = try CodeExporter(templates: source, format: exportFormat, campaign: campaign)
        var people: [ExportRecipient]?
        var noteOffer = offer
        if let recipients {
            // Read and checked line by line (names, languages, ids); the exporter resolves languages per row.
            let list = try Self.readRecipients(recipients)
            people = list
            guard !list.isEmpty else {
                throw CLIError.invalidInput(
                    "\(recipients == "-" ? "stdin" : recipients): \(ExportError.noRecipients.localizedDescription)")
            }
            let offerName = try singleOffer(of: campaign)
            noteOffer = offerName
            let scope = AssignmentScope(
                campaign: campaign.name, offer: offerName,
                environment: environment.codeEnvironment ?? .production, today: try options.day())
            guard let ledger else { throw LedgerError.unknownCampaign(campaign: campaign.name) }
            if reprint {
                try await reprint(list, scope: scope, ledger: ledger, exporter: exporter)
            } else {
                try await assign(list, scope: scope, ledger: ledger, exporter: exporter)
            }
        } else if reprint {
            try await reprintAll(campaign: campaign, ledger: ledger, exporter: exporter)
        } else {
            try await exportCodes(campaign: campaign, ledger: ledger, exporter: exporter)
        }
        Self.noteMissingTitles(
            exporter, campaign: campaign, campaignPath: options.campaign, offer: noteOffer, recipients: people)
    }

    /// Every code of the campaign (optionally of one offer), nothing handed out.
    private func exportCodes(campaign: Campaign, ledger: CodeLedger?, exporter: CodeExporter) async throws {
        let count = try await output(label: "exporting codes") { sink, progress in
            var count = 0
            var records = exporter.records(hasRecipients: false)
            try await ledger?.forEachCode(campaign: campaign.name, offer: offer) { code in
                guard includes(code.environment) else { return }
                count += 1
                progress.update(count)
                try records.add(code) { try sink.write($0) }
            }
            try records.finish { try sink.write($0) }
            return count
        }
        if count == 0 {
            throw CLIError.invalidInput(
                "the ledger has no codes for campaign \(campaign.name)\(offer.map { ", offer \"\($0)\"" } ?? "")"
                    + environmentNote + ": "
                    + "run `offerkit codes generate` (custom codes) or `offerkit codes import` (Apple's codes) first")
        }
    }

    /// Whether codes of `environment` are exported.
    func includes(_ environment: CodeEnvironment) -> Bool {
        self.environment.codeEnvironment.map { $0 == environment } ?? true
    }

    /// " in production (--environment)", or nothing for all environments.
    var environmentNote: String { environment == .all ? "" : " in \(environment.rawValue) (--environment)" }

    /// Runs `export` into the output (--out or stdout), which gets all of it, or nothing when
    /// `export` throws or returns 0 (the number of records it wrote). `spool`: stdout gets
    /// nothing until `export` returns.
    func output(
        label: String, spool: Bool = false,
        _ export: (_ sink: OutputSink, _ progress: inout ProgressReporter) async throws -> Int
    ) async throws -> Int {
        let sink = try OutputSink(path: out, overwrite: force, spool: spool)
        var progress = ProgressReporter(label, total: nil)
        do {
            let count = try await export(sink, &progress)
            progress.finish()
            if count > 0 { try sink.finish() } else { sink.abandon() }
            return count
        } catch {
            progress.finish()
            sink.abandon()
            throw error
        }
    }

    /// The offer that recipients get a code of: --offer, or the campaign's only one.
    func singleOffer(of campaign: Campaign) throws -> String {
        if let offer { return offer }
        guard campaign.offers.count == 1 else {
            let names = campaign.offers.map { "\"\($0.referenceName)\"" }.joined(separator: ", ")
            throw CLIError.usage(
                "--recipients needs one offer: each recipient gets a code of it; add --offer NAME (campaign "
                    + "\(campaign.name) has \(campaign.offers.count) offers: \(names))")
        }
        return campaign.offers[0].referenceName
    }

    /// The recipients of a CSV file (see ``ExportRecipient/list(csv:)``).
    static func readRecipients(_ path: String) throws -> [ExportRecipient] {
        let bytes = try InputFile.read(
            path, limit: InputFile.tableLimit, what: "a recipients file", accepting: .regularFile)
        do {
            return try ExportRecipient.list(csv: bytes)
        } catch {
            throw CLIError.invalidInput("\(path == "-" ? "stdin" : path): \(error.localizedDescription)")
        }
    }
}
