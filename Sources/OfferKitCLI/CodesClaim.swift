import ArgumentParser
import Foundation
import OfferCodes
import OfferKitSigningCLI
import OfferLedger

/// `offerkit codes claim`: one code for one recipient, recorded in the ledger.
struct CodesClaim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "claim",
        abstract: "Hand out one code of an offer to one recipient and print it with its redemption link.",
        discussion: """
            The code is recorded in the ledger under the recipient id (a user id, an email hash, a name). The \
            same recipient claiming again gets the same code, so a retry is safe. A one-time-use code (and a \
            custom code redeemable once) goes to one recipient only; an offer with shared custom codes \
            (redemption limit above 1) gives everyone the campaign's code, up to its redemption limit. When \
            no code is left, the exit code is 4 and nothing is recorded.
            """)

    @OptionGroup var options: CampaignOptions

    @Option(help: "The offer's reference name.")
    var offer: String

    @Option(
        help: ArgumentHelp(
            "Who receives the code: an id of your choice (1 to \(RecipientId.maximumBytes) bytes of UTF-8, no "
                + "control characters).",
            valueName: "id"))
    var recipient: String

    @Option(help: "Which codes: PRODUCTION (default) or SANDBOX (they do not work in the App Store), in any case.")
    var environment: CodeEnvironment = .production

    @Option(help: "text (the code, its link and a sentence) or json (every field, as POST /v1/codes/claim answers).")
    var format: OutputFormat = .text

    func validate() throws {
        if let problem = RecipientId.problem(recipient) {
            throw ValidationError("--recipient: the recipient id \(problem)")
        }
    }

    func run() async throws {
        let campaign = try options.loadRecorded()
        _ = try CampaignOptions.offerIndex(named: offer, in: campaign)
        let scope = AssignmentScope(
            campaign: campaign.name, offer: offer, environment: environment,
            today: try options.day())
        let assignment = try await options.ledger.withExisting { ledger in
            guard let ledger else { throw LedgerError.unknownCampaign(campaign: campaign.name) }
            return try await ledger.claim(recipient: recipient, scope: scope)
        }
        let report = CodeClaimReport(assignment, appAppleId: campaign.app.appAppleId)
        switch format {
        case .json: Output.line(report.jsonText())
        case .text: Output.line(Self.text(assignment, url: report.url))
        }
    }

    /// The code, its link, and a sentence saying what it is and whether it was handed out now.
    static func text(_ assignment: CodeAssignment, url: String) -> String {
        let code = assignment.code
        var facts = [code.environment == .production ? "production" : "sandbox"]
        facts.append(code.expirationDate.map { "expires \($0)" } ?? "does not expire")
        let offer = "offer \"\(code.offer)\" (\(facts.joined(separator: ", ")))"
        let since = "\(LedgerTimestamp.text(assignment.assignedAt)), by \(assignment.channel.rawValue)"
        let first =
            if assignment.isShared {
                "The campaign's code for \(offer), shared by everyone who gets it (up to \(code.redemptionLimit) "
                    + "redemptions): \(code.code)"
            } else {
                "Code for \(assignment.recipient), \(offer): \(code.code)"
            }
        let last =
            if assignment.isNew {
                "Handed out to \(assignment.recipient) now."
            } else {
                "Already handed out to \(assignment.recipient) (\(since)): the same code as before, nothing new "
                    + "was recorded."
            }
        return [first, "Redeem: \(url)", last].joined(separator: "\n")
    }
}
