/// What a code ledger holds for an app, as ``CampaignValidator`` checks a campaign against it:
/// the app's active offers and codes counted in a quarter, and the custom codes other campaigns
/// issued. The ledger (`CodeLedger` of `OfferLedger`) implements it.
public protocol AppCodeHistory: Sendable {
    /// What the ledger holds for an app, leaving out one campaign (the one being validated, so
    /// that checking a campaign again does not count it twice).
    func summary(appAppleId: String, quarter: String, excludingCampaign: String) async throws -> LedgerSummary

    /// Which of `codes` were already issued for the app by a campaign other than
    /// `excludingCampaign`. Codes compare case-insensitively; the result holds them upper-cased.
    func issuedCodes(appAppleId: String, among codes: [String], excludingCampaign: String) async throws -> Set<String>
}
