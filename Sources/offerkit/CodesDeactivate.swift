import ArgumentParser
import OfferCodes

/// `offerkit codes deactivate`: mirror App Store Connect's `active` switch in the ledger.
struct CodesDeactivate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deactivate",
        abstract: "Mark an offer inactive in the ledger (after switching it off in App Store Connect).",
        discussion: """
            App Store Connect allows 10 active offers per app; validation counts the ledger's active offers of \
            other campaigns. Use --activate to mark it active again.
            """)

    @OptionGroup var options: CampaignOptions

    @Option(help: "The offer's reference name.")
    var offer: String

    @Flag(help: "Mark the offer active instead.")
    var activate = false

    func run() throws {
        let campaign = try options.loadRecorded()
        _ = try CampaignOptions.offerIndex(named: offer, in: campaign)
        guard let ledger = try options.ledger.require(for: "deactivate", existing: true) else {
            throw LedgerError.unknownOffer(offer: offer, campaign: campaign.name)
        }
        try ledger.setOfferActive(activate, offer: offer, campaign: campaign.name)
        Output.line("\(offer): \(activate ? "active" : "inactive")")
    }
}
