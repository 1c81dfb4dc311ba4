import OfferJSON
import OfferLedger
import OfferServiceContract

extension CodeSchemas {
    /// The problem for a ledger error; `campaignField` is the field that named the campaign
    /// (`campaign` in a claim's body; `nil` for a path parameter).
    static func problem(for error: LedgerError, campaignField: String?) -> ServiceProblem {
        switch error {
        case .unknownCampaign(let campaign):
            unknownCampaign(campaign, field: campaignField)
        case .unknownOffer(let offer, let campaign):
            unknownOffer(offer, campaign: campaign, field: campaignField == nil ? nil : "offer")
        case .offerInactive(let offer, let campaign):
            offerInactive(offer, campaign: campaign)
        case .noCodeLeft(let campaign, let offer, let environment, let assigned, let stored):
            noCodeLeft(campaign: campaign, offer: offer, environment: environment, assigned: assigned, stored: stored)
        case .nothingToAssign(let campaign, let offer, _, let reason):
            nothingToAssign(campaign: campaign, offer: offer, reason: reason)
        case .invalidRecipient(_, let problem):
            ServiceProblem(.invalidField, detail: "recipient \(problem)", field: "recipient")
        default:
            ledgerUnavailable
        }
    }
}
