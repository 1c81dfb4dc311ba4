import ArgumentParser
import OfferCodes
import OfferConnect
import OfferConnectAPI
import OfferKitSigningCLI
import OfferLedger

/// `offerkit codes fetch`: the one-time-use codes App Store Connect had not produced when
/// `codes apply` ran, fetched and imported now.
struct CodesFetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch and import the codes of the campaign's one-time-use batches that `codes apply` created.",
        discussion: """
            For every one-time-use batch the ledger records as created in App Store Connect but holds no codes \
            for: GET …/values (text/csv), then import as `codes import` does. Codes App Store Connect has not \
            produced yet are asked for again until --values-wait seconds have passed.
            """)

    @OptionGroup var options: CampaignOptions
    @OptionGroup var connect: ConnectOptions

    @Option(
        name: .customLong("values-wait"), parsing: .unconditional,
        help: "Seconds to wait for codes App Store Connect has not produced yet (0 to 3600).")
    var valuesWait = 60

    @Option(help: "text or json (the summary).")
    var format: OutputFormat = .text

    func run() async throws {
        guard (0...3600).contains(valuesWait) else {
            throw CLIError.usage("--values-wait must be 0 to 3600 seconds, not \(valuesWait)")
        }
        try await options.ledger.withExisting { ledger in
            guard let ledger else {
                throw CLIError.usage(
                    "the ledger \(options.ledger.resolvedPath) does not exist: codes fetch imports the codes of the "
                        + "batches `offerkit codes apply` created into the ledger it recorded them in; give that "
                        + "ledger (--ledger or OFFERKIT_LEDGER)")
            }
            try await fetch(ledger: ledger)
        }
    }

    private func fetch(ledger: CodeLedger) async throws {
        let campaign = try await CodesPlan.withRecordedExpiry(options.loadRecorded(), ledger: ledger)
        let reporter = ApplyReporter(verbose: connect.verbose, label: "fetching")
        let run = ApplyRun(
            campaign: campaign, requests: [], ledger: ledger, address: try connect.address(),
            signer: try connect.signer(), tokenLifetime: connect.tokenLifetime, settings: try connect.settings(),
            today: try options.day(), valuesWait: .seconds(valuesWait), events: reporter.handle)
        let summary = try await run.fetchOnly()
        reporter.finish()
        try CodesApply.report(summary, campaign: campaign, format: format, options: options)
    }
}
