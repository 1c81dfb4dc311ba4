import ArgumentParser
import Foundation
import OfferCodes
import OfferJSON
import OfferKitSigningCLI
import OfferLedger
import OfferSigning

/// `offerkit codes validate`: every problem of a campaign, in one run.
struct CodesValidate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a campaign against App Store Connect's rules and the ledger; report every problem at once.",
        discussion: """
            Each problem names the JSON path of the field, what is wrong and what is allowed. Exits 0 when the \
            campaign is valid, 4 when it has problems. Nothing is written, not even to the ledger.
            """)

    @OptionGroup var options: CampaignOptions
    @OptionGroup var noLedger: NoLedgerOption
    @OptionGroup var output: OutputOptions

    func validate() throws { try noLedger.check(options.ledger) }

    func run() async throws {
        let report = try await noLedger.withReadable(options.ledger) { ledger in
            // Given codes are looked up in the ledger's index: check that it matches the codes table.
            try await ledger?.checkIntegrity(thorough: true)
            return try await CampaignValidator(today: options.day()).validate(
                json: options.readCampaignBytes(), against: ledger)
        }
        switch output.format {
        case .json:
            // The members POST /v1/campaigns/validate answers with, from the same encoder.
            Output.line(report.jsonText(pretty: true))
            if !report.isValid { throw ExitCode(ExitStatus.invalidInput.rawValue) }
        case .text:
            if !report.isValid { throw CampaignProblems(report.problems) }
            if let campaign = report.campaign { Output.line(Self.summary(campaign)) }
        }
    }

    /// "valid: spring-2027 (app 1234567890): 2 offers, 1 one-time-use batch (500 codes), …", then,
    /// when the campaign has them, its promotional, introductory (with their territories) and
    /// win-back offers.
    static func summary(_ campaign: Campaign) -> String {
        let oneTimeUse = campaign.offers.flatMap(\.oneTimeUseCodes)
        let custom = campaign.offers.flatMap(\.customCodes)
        var summary =
            "valid: \(campaign.name) (app \(campaign.app.appAppleId)): \(counted(campaign.offers.count, "offer")), "
            + "\(counted(oneTimeUse.count, "one-time-use batch", "es")) (\(oneTimeUse.reduce(0) { $0 + $1.count }) codes), "
            + "\(counted(custom.count, "custom-code batch", "es")) (\(custom.reduce(0) { $0 + $1.codeCount }) codes)"
        if campaign.hasSubscriptionOffers {
            let territories = campaign.introductoryOffers.reduce(0) { $0 + $1.terms.prices.count }
            summary +=
                ", \(counted(campaign.promotionalOffers.count, "promotional offer")), "
                + "\(counted(campaign.introductoryOffers.count, "introductory offer")) "
                + "(\(counted(territories, "territory", "ies", dropping: 1))), "
                + counted(campaign.winBackOffers.count, "win-back offer")
        }
        return summary
    }

    /// "1 offer", "2 offers"; "2 territories" (`dropping` the last character before `ending`).
    private static func counted(_ count: Int, _ noun: String, _ ending: String = "s", dropping: Int = 0) -> String {
        count == 1 ? "1 \(noun)" : "\(count) \(noun.dropLast(dropping))\(ending)"
    }
}
