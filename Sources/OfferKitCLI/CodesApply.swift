import ArgumentParser
import Foundation
import OfferCodes
import OfferConnect
import OfferConnectAPI
import OfferJSON
import OfferKitSigningCLI
import OfferLedger

/// `offerkit codes apply`: the campaign's plan sent to App Store Connect, exactly once,
/// resumable after any failure.
struct CodesApply: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract:
            "Create the campaign's offers and codes in App Store Connect, then import Apple's one-time-use codes.",
        discussion: """
            Sends every request of `offerkit codes plan` that the ledger has not seen succeed, in dependency order, \
            and records each id App Store Connect returns before any request that needs it. Run it again after \
            any failure (network, 5xx, a kill): it continues where it stopped and never creates anything twice; a \
            request whose outcome was unknown is looked up in App Store Connect before it is sent again. Then \
            fetches each new one-time-use batch's codes and imports them (as `codes import` does). Run \
            `offerkit codes generate` first (with the same ledger).

            A price written as a customer price is sent with the price point `codes plan` recorded for it, or \
            looked up and recorded now (see `codes plan`). Before anything is created, each product's product ID in \
            App Store Connect is compared with the campaign's: a campaign that pairs one product's id with another's \
            product ID creates nothing (exit 4).

            Credentials: an App Store Connect API key (team key with --issuer-id, or --individual), given as \
            for `offerkit token connect-api`. Exit 4 when App Store Connect refused something (the rest is \
            kept), 5 when it could not be reached, 3 when it refused the key.
            """)

    @OptionGroup var options: CampaignOptions
    @OptionGroup var connect: ConnectOptions

    @Flag(
        help: ArgumentHelp(
            "Print what would be created and what exists already, from the ledger; create and record nothing (a "
                + "customer price the ledger has no price point for is looked up: GET requests only)."))
    var dryRun = false

    @Option(
        name: .customLong("values-wait"), parsing: .unconditional,
        help: "Seconds to wait for one-time-use codes App Store Connect has not produced yet (0 to 3600).")
    var valuesWait = 60

    @Option(help: "text or json (the summary, or with --dry-run every resource).")
    var format: OutputFormat = .text

    func run() async throws {
        guard (0...3600).contains(valuesWait) else {
            throw CLIError.usage("--values-wait must be 0 to 3600 seconds, not \(valuesWait)")
        }
        // --dry-run only reads the ledger: it is opened read-only, never created or migrated.
        let body: (CodeLedger?) async throws -> Void = { ledger in
            guard let ledger else {
                throw CLIError.usage(
                    "the ledger \(options.ledger.resolvedPath) does not exist: run `offerkit codes generate` with the "
                        + "same ledger first, so that the campaign's codes and limits are recorded (codes apply "
                        + "records there what App Store Connect creates)")
            }
            try await apply(ledger: ledger)
        }
        if dryRun {
            try await options.ledger.withExistingForReading(body)
        } else {
            try await options.ledger.withExisting(body)
        }
    }

    private func apply(ledger: CodeLedger) async throws {
        let (campaign, requests) = try await Self.plan(
            options, ledger: ledger, prices: CampaignPriceResolver(connect: connect), recordPrices: !dryRun)
        if dryRun {
            try DryRunReport(
                campaign: campaign, requests: requests,
                recorded: try await ledger.connectResources(campaign: campaign.name)
            )
            .print(format: format)
            return
        }
        let address = try connect.address()
        let settings = try connect.settings()
        let signer = try connect.signer()
        let reporter = ApplyReporter(verbose: connect.verbose, label: "applying")
        let run = ApplyRun(
            campaign: campaign, requests: requests, ledger: ledger, address: address, signer: signer,
            tokenLifetime: connect.tokenLifetime, settings: settings, today: try options.day(),
            valuesWait: .seconds(valuesWait), events: reporter.handle)
        let summary = try await run.run()
        reporter.finish()
        try Self.report(summary, campaign: campaign, format: format, options: options)
    }

    /// The campaign as recorded and its plan, after the checks `codes plan` makes, its customer
    /// prices resolved as `codes plan` resolves them (and recorded, with `recordPrices`).
    static func plan(
        _ options: CampaignOptions, ledger: CodeLedger, prices: CampaignPriceResolver, recordPrices: Bool
    ) async throws -> (Campaign, [PlannedRequest]) {
        try await ledger.checkIntegrity(thorough: false)
        let campaign = try await CodesPlan.withRecordedExpiry(options.loadAsRecorded(ledger: ledger), ledger: ledger)
        try await RecordedBatchCheck.verify(campaign, ledger: ledger)
        let recorded = try await ledger.batches(campaign: campaign.name)
        let expected = campaign.offers.reduce(0) { $0 + $1.customCodes.count + $1.oneTimeUseCodes.count }
        guard recorded.count >= expected, expected > 0 || !recorded.isEmpty || campaign.offers.isEmpty else {
            throw CLIError.usage(
                "campaign \(campaign.name) is not recorded in the ledger (\(recorded.count) of \(expected) batches): run "
                    + "`offerkit codes generate` with the same ledger first, so that its codes and limits are recorded")
        }
        let codes = try await CustomCodeSource.read(campaign: campaign, ledger: ledger)
        // apply records what it looks up before it sends anything that names a price point.
        let resolved = try await prices.resolve(
            campaign, recorded: try await ledger.recordedPricePoints(campaign: campaign.name))
        let priced =
            recordPrices
            ? try await CampaignPriceResolver.record(resolved, of: campaign, in: ledger) : resolved.campaign
        do {
            return (priced, try RequestPlanner().planCampaign(priced, customCodes: codes.codes))
        } catch let error as RequestPlanningError {
            throw CampaignPriceResolver.explained(error)
        }
    }

    /// Prints the summary and ends with the run's exit status.
    static func report(_ summary: ApplySummary, campaign: Campaign, format: OutputFormat, options: CampaignOptions)
        throws
    {
        let fetch =
            "offerkit codes fetch \(options.campaign) --ledger \(options.ledger.path ?? LedgerOptions.defaultPath) "
            + "(with the same credentials)"
        switch format {
        case .text: Output.line(ApplyReporter.text(summary, campaign: campaign.name, fetchHint: fetch))
        case .json: Output.line(String(decoding: SummaryJSON.value(summary).serialized(pretty: true), as: UTF8.self))
        }
        if let stop = summary.stoppedBy { throw stop }
        if !summary.refused.isEmpty || !summary.importProblems.isEmpty {
            var parts: [String] = []
            if !summary.refused.isEmpty {
                parts.append("App Store Connect refused \(summary.refused.count) resource(s)")
            }
            if !summary.importProblems.isEmpty {
                parts.append("\(summary.importProblems.count) batch(es) of one-time-use codes could not be imported")
            }
            throw CLIError.invalidInput(
                parts.joined(separator: " and ") + "; everything else is recorded. Fix what the messages name (the "
                    + "campaign paths say where), then run the same command again: it sends only what is not created yet."
            )
        }
    }
}

/// The summary as JSON: `{"planned", "created", "alreadyThere", "refused": [{"resource", "errors"}], …}`.
enum SummaryJSON {
    static func value(_ summary: ApplySummary) -> JSONValue {
        func error(_ detail: AppleErrorDetail) -> JSONValue {
            var members: [(key: String, value: JSONValue)] = [
                ("status", .string(detail.status)), ("code", .string(detail.code)), ("title", .string(detail.title)),
                ("detail", .string(detail.detail)),
            ]
            if let source = detail.source { members.append(("source", .string(source))) }
            if let path = detail.campaignPath { members.append(("campaignPath", .string(path))) }
            return .object(members)
        }
        var members: [(key: String, value: JSONValue)] = [
            ("planned", .integer(summary.planned)), ("created", .integer(summary.created)),
            ("alreadyThere", .integer(summary.alreadyThere)),
            (
                "refused",
                .array(
                    summary.refused.map {
                        .object([("resource", .string($0.resource)), ("errors", .array($0.errors.map(error)))])
                    })
            ),
            ("skipped", .integer(summary.skipped)), ("unfinished", .integer(summary.unfinished)),
            ("requests", .integer(summary.requests)),
            (
                "imported",
                .array(
                    summary.imported.map {
                        .object([("resource", .string($0.resource)), ("codes", .integer($0.codes))])
                    })
            ),
            ("codesPending", .array(summary.codesPending.map { .string($0) })),
            ("importProblems", .array(summary.importProblems.map { .string($0) })),
            (
                "seconds",
                .number(
                    String(
                        format: "%.3f",
                        Double(summary.duration.components.seconds) + Double(summary.duration.components.attoseconds)
                            / 1e18))
            ),
        ]
        if let rateLimit = summary.rateLimit {
            members.append(
                (
                    "rateLimit",
                    .object([("limit", .integer(rateLimit.limit)), ("remaining", .integer(rateLimit.remaining))])
                ))
        }
        if let stop = summary.stoppedBy { members.append(("stoppedBy", .string(stop.localizedDescription))) }
        return .object(members)
    }
}
