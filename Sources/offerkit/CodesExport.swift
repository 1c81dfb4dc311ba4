import ArgumentParser
import Foundation
import OfferCodes

/// `offerkit codes export`: what marketing hands out, rendered from templates.
struct CodesExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a campaign's codes from the ledger: CSV, JSON, or a message per recipient.",
        discussion: """
            Every code carries its redemption link \
            https://apps.apple.com/redeem?ctx=offercodes&id=<APP_APPLE_ID>&code=<CODE> (URL-encoded). Formats: \
            csv (code, url, offer, expirationDate), json, messages (CSV rows of code, language and a ready message; \
            with --recipients, one code per recipient, greeting them by name; each offer is named by its displayName \
            in the message's language, never its referenceName). Languages: \
            \(CodeExporter.languages.joined(separator: ", ")). --templates DIR uses your own Mustache templates \
            (same file names as templates/codes/; missing ones fall back to the built-in ones).
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case csv, json, messages
    }

    @OptionGroup var options: CampaignOptions

    @Option(help: "Only this offer (its reference name). Default: every offer of the campaign.")
    var offer: String?

    @Option(help: "csv, json or messages.")
    var format: Format = .csv

    @Option(help: "Messages: the language (\(CodeExporter.languages.joined(separator: ", "))).")
    var language: String = "en"

    @Option(
        help: """
            Messages: a CSV file with one recipient per line, name or name,language (quote a name with a comma: \
            "Wang, Fang",zh-Hans); each gets the next code.
            """)
    var recipients: String?

    enum Environment: String, ExpressibleByArgument, CaseIterable {
        case production, sandbox, all
    }

    @Option(help: "Which codes: production (default), sandbox or all. Sandbox codes do not work in the App Store.")
    var environment: Environment = .production

    @Option(help: "A folder of your own templates.")
    var templates: String?

    @Option(help: "Write the export to this file (whole or not at all) instead of stdout.")
    var out: String?

    @Flag(help: "Replace --out if it exists.")
    var force = false

    func validate() throws {
        if recipients != nil, format != .messages { throw ValidationError("--recipients needs --format messages") }
    }

    func run() throws {
        let campaign = try options.loadRecorded()
        if let offer { _ = try CampaignOptions.offerIndex(named: offer, in: campaign) }
        let ledger = try options.ledger.require(for: "export", existing: true)
        try ledger?.checkIntegrity()
        let exportFormat: ExportFormat =
            switch format {
            case .csv: .csv
            case .json: .json
            case .messages: .messages(language: language)
            }
        let source = templates.map { ExportTemplates.directory(URL(fileURLWithPath: $0)) } ?? .builtIn
        let exporter = try CodeExporter(templates: source, format: exportFormat, campaign: campaign)
        let people = try recipients.map(Self.readRecipients)
        let sink = try OutputSink(path: out, overwrite: force)
        var progress = ProgressReporter("exporting codes", total: nil)
        var count = 0
        do {
            try exporter.export(
                recipients: people, to: { try sink.write($0) },
                forEachCode: { body in
                    try ledger?.forEachCode(campaign: campaign.name, offer: offer) { code in
                        guard environment == .all || code.environment.rawValue.lowercased() == environment.rawValue
                        else { return }
                        count += 1
                        progress.update(count)
                        try body(code)
                    }
                })
            progress.finish()
            if count == 0 {
                throw CLIError.invalidInput(
                    "the ledger has no codes for campaign \(campaign.name)\(offer.map { ", offer \"\($0)\"" } ?? "")"
                        + (environment == .all ? "" : " in \(environment.rawValue) (--environment)") + ": "
                        + "run `offerkit codes generate` (custom codes) or `offerkit codes import` (Apple's codes) first"
                )
            }
            try sink.finish()
            Self.noteMissingTitles(
                exporter, campaign: campaign, campaignPath: options.campaign, offer: offer, recipients: people)
        } catch {
            progress.finish()
            sink.abandon()
            throw error
        }
    }

    /// One recipient per non-blank line of a CSV file: `name` or `name,language` (RFC 4180 quoting).
    static func readRecipients(_ path: String) throws -> [ExportRecipient] {
        let bytes = try InputFile.read(path, limit: InputFile.tableLimit, what: "a recipients file")
        do {
            return try ExportRecipient.list(csv: bytes)
        } catch {
            throw CLIError.invalidInput("\(path == "-" ? "stdin" : path): \(error.localizedDescription)")
        }
    }
}
