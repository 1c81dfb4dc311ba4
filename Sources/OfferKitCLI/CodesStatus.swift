import ArgumentParser
import Foundation
import OfferCodes
import OfferKitSigningCLI
import OfferLedger

/// `offerkit codes status`: what the ledger holds for a campaign and how much was handed out.
struct CodesStatus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show a campaign's codes per offer and batch: recorded, in the ledger, handed out and left.",
        discussion: """
            Per offer (active or not) and batch: kind and position, environment, quarter, expiration, redemption \
            limit, the codes recorded, those the ledger holds (generated, or imported from Apple: one-time-use \
            batches hold none until `offerkit codes import`), handed out and left; totals per offer and \
            environment (their left is what claims and exports can still hand out: batches not expired, and \
            only personal codes when the offer has any); then the app's use of this quarter's limits. For \
            shared codes (redemption limit above 1), handed out counts recipients and left counts redemptions. Per offer, what `codes \
            apply` did in App Store Connect: each resource planned, sent (outcome unknown), created (with Apple's \
            id) or failed (with Apple's error).
            """)

    @OptionGroup var options: CampaignOptions

    @Option(help: "text (a table) or json (the members of GET /v1/campaigns/{name}/status; see docs/offer-codes.md).")
    var format: OutputFormat = .text

    func run() async throws {
        let campaign = try options.loadRecorded()
        let today = try options.day()
        let (status, resources) = try await options.ledger.withRequiredForReading(for: "status") { ledger in
            (
                try await ledger.status(campaign: campaign.name, today: today),
                try await ledger.connectResources(campaign: campaign.name)
            )
        }
        let recorded = Set(status.offers.map(\.name))
        let report = StatusReport(
            status, today: today,
            unrecordedOffers: campaign.offers.map(\.referenceName).filter { !recorded.contains($0) },
            resources: resources, declaresSubscriptionOffers: campaign.hasSubscriptionOffers)
        switch format {
        case .json:
            for note in report.notes { Output.note(note) }
            Output.line(report.report.jsonText())
        case .text: Output.line(report.text)
        }
    }
}
