import Foundation
import OfferCodes

extension FuzzTarget {
    /// The day relative dates in fuzzed campaigns count from (the test fixtures' day).
    static let campaignToday = CalendarDate(year: 2027, month: 3, day: 15)!

    /// Validates (shape and rules, no ledger) and reads; a valid campaign must also read, and is
    /// planned into App Store Connect requests (its subscription offers always, unless a price is
    /// named by its customer price).
    static func fuzzCampaign(_ input: [UInt8]) {
        let report: ValidationReport
        do {
            report = try CampaignValidator(today: campaignToday).validate(json: input)
        } catch {
            fatalError("fuzz invariant broken: validation without a ledger threw \(error)")
        }
        for problem in report.problems { _ = "\(problem)" }
        let read = Result { () throws(CampaignProblems) in try CampaignReader(today: campaignToday).read(json: input) }
        guard report.isValid, let campaign = report.campaign else { return }
        check((try? read.get()) != nil, "a campaign the validator accepts does not read")
        // Generated custom codes come from the ledger, which there is none of here: planning stops there.
        _ = try? RequestPlanner().plan(campaign) { _, _ in throw CancellationError() }
        // Promotional, introductory and win-back offers plan whole; only a customer price (looked up
        // by PriceResolution, which needs App Store Connect) stops them.
        do {
            _ = try RequestPlanner().planSubscriptionOffers(campaign)
        } catch RequestPlanningError.pricePointNotLookedUp {
            return
        } catch {
            fatalError("fuzz invariant broken: a valid campaign's subscription offers do not plan: \(error)")
        }
    }
}
