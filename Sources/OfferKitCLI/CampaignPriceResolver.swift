import Foundation
import OfferCodes
import OfferConnect
import OfferKitSigningCLI
import OfferLedger

/// How `codes plan` and `codes apply` fill in the price point of each price a campaign names by
/// its customer price: from the price points the ledger recorded for the campaign, then from App
/// Store Connect's lists (with the API key of `connect`). What a look-up finds is recorded in the
/// ledger (``CodeLedger/recordPricePoints(_:campaign:)``), so that every later plan of the
/// campaign sends the same price point, even after App Store Connect's list changes.
struct CampaignPriceResolver {
    let connect: ConnectOptions

    /// Whether `codes apply` would have an API key with these options: one given by a flag or by
    /// `OFFERKIT_KEY_FILE`, `OFFERKIT_KEY` or `OFFERKIT_CONFIG`, or, with no credential given at
    /// all, the demo key of a checkout (``Credentials/demoKeyRule``).
    func hasKey(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        let given = connect.credentials
        let keyVariables = ["OFFERKIT_KEY_FILE", "OFFERKIT_KEY", "OFFERKIT_CONFIG"]
        if [given.keyFile, given.keyEnv, given.config].contains(where: { $0 != nil })
            || keyVariables.contains(where: { environment[$0] != nil })
        {
            return true
        }
        let anyCredential =
            [given.keyId, given.issuerId, given.bundleId].contains { $0 != nil }
            || ["OFFERKIT_KEY_ID", "OFFERKIT_ISSUER_ID", "OFFERKIT_BUNDLE_ID"].contains { environment[$0] != nil }
        return !anyCredential && Credentials.demoConfigPath() != nil
    }

    /// The campaign with the recorded price points filled in, then those App Store Connect lists
    /// for the prices still open; `lookedUp` is what to record. Without an API key, nothing is
    /// looked up: the planner then refuses each open price, naming the look-up that finds it.
    func resolve(_ campaign: Campaign, recorded: [ResolvedPrice]) async throws -> PriceResolution.Resolved {
        let known = PriceResolution.applying(recorded, to: campaign)
        let open = PriceResolution.unresolved(in: known)
        guard !open.isEmpty, hasKey() else { return PriceResolution.Resolved(campaign: known, lookedUp: []) }
        return try await LookupOptions.withLister(connect) { lister in
            let resolution = PriceResolution(recorded: recorded) { query in
                do {
                    return try await lister.pricePoints(query)
                } catch let error as ConnectLister.NotFound {
                    let paths = open.filter { $0.query.product == query.product }.map(\.path)
                    throw CLIError.invalidInput(
                        "\(paths.joined(separator: ", ")): App Store Connect has no \(query.product.noun) "
                            + "with the id \(ProblemText.quoted(query.product.id)) (GET \(error.path): \(error.detail)); "
                            + "check the offer's subscription or product id (`offerkit codes lookup` lists them)")
                }
            }
            return try await resolution.resolution(of: campaign)
        }
    }

    /// Records `resolved.lookedUp` in the ledger and returns the campaign as the recorded price
    /// points resolve it (a price another run recorded first wins, so that all runs agree).
    static func record(_ resolved: PriceResolution.Resolved, of campaign: Campaign, in ledger: CodeLedger)
        async throws -> Campaign
    {
        guard !resolved.lookedUp.isEmpty else { return resolved.campaign }
        let recorded = try await ledger.recordPricePoints(resolved.lookedUp, campaign: campaign.name)
        return PriceResolution.applying(recorded, to: campaign)
    }
}
