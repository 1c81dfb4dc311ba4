import ArgumentParser
import OfferCodes
import OfferConnect
import OfferConnectAPI
import OfferKitSigningCLI
import OfferLedger

/// `offerkit codes deactivate`: App Store Connect's `active` switch, in the ledger and (with
/// `--apply`) in App Store Connect.
struct CodesDeactivate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deactivate",
        abstract: "Mark an offer inactive in the ledger, and with --apply switch it off in App Store Connect too.",
        discussion: """
            App Store Connect allows 10 active offers per app; validation counts the ledger's active offers of \
            other campaigns. Use --activate to mark it active again. With --apply (an offer `codes apply` \
            created), OfferKit sends PATCH {"active": false} (or true) to App Store Connect first and records the \
            change only once App Store Connect accepted it; switching on checks the ledger's limit before sending. \
            Apple reports that deactivation may not be reversible.
            """)

    @OptionGroup var options: CampaignOptions

    @Option(help: "The offer's reference name.")
    var offer: String

    @Flag(help: "Mark the offer active instead.")
    var activate = false

    @Flag(help: "Also send the switch to App Store Connect (credentials as for `codes apply`).")
    var apply = false

    @OptionGroup var connect: ConnectOptions

    func run() async throws {
        let campaign = try options.loadRecorded()
        let offerIndex = try CampaignOptions.offerIndex(named: offer, in: campaign)
        try await options.ledger.withExisting { ledger in
            guard let ledger else { throw LedgerError.unknownOffer(offer: offer, campaign: campaign.name) }
            try await run(campaign: campaign, offerIndex: offerIndex, ledger: ledger)
        }
    }

    private func run(campaign: Campaign, offerIndex: Int, ledger: CodeLedger) async throws {
        guard apply else {
            try await ledger.setOfferActive(activate, offer: offer, campaign: campaign.name)
            Output.line("\(offer): \(activate ? "active" : "inactive")")
            return
        }
        let recorded = try await ledger.connectResources(campaign: campaign.name).first {
            $0.offerKind == .offerCode && $0.offer == offer && $0.kind == .offer && $0.state == .created
        }
        guard let recorded, let id = recorded.id else {
            throw ConnectError.notCreated(what: "Offer \"\(offer)\" of campaign \"\(campaign.name)\"")
        }
        let address = try connect.address()
        let signer = try connect.signer()
        let settings = try connect.settings()
        let resourceType = OfferCodeAPI.offerResourceType(campaign.offers[offerIndex].product.type)
        let wasActive =
            try await ledger.status(campaign: campaign.name, today: options.day()).offers.first { $0.name == offer }?
            .active ?? false
        // The ledger checks the limit of active offers before App Store Connect is asked.
        if activate { try await ledger.setOfferActive(true, offer: offer, campaign: campaign.name) }
        let activation = OfferActivation(
            address: address, signer: signer, tokenLifetime: connect.tokenLifetime, settings: settings,
            events: ApplyReporter(verbose: connect.verbose, label: "switching").handle)
        do {
            try await activation.setActive(activate, resourceType: resourceType, id: id)
        } catch {
            // Back to what the ledger said before: App Store Connect changed nothing.
            if activate, !wasActive { try? await ledger.setOfferActive(false, offer: offer, campaign: campaign.name) }
            throw error
        }
        if !activate { try await ledger.setOfferActive(false, offer: offer, campaign: campaign.name) }
        Output.line("\(offer): \(activate ? "active" : "inactive") (App Store Connect id \(id) and the ledger)")
    }
}
