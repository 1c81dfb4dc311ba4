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

    /// Whether to look prices up: when any credential is given (a flag or an `OFFERKIT_*`
    /// variable; a missing part, such as the key itself, is then an error naming it), or, with no
    /// credential at all, when a checkout's demo key (``Credentials/demoKeyRule``) would reach a
    /// stand-in named by `--api-base-url` or `OFFERKIT_CONNECT_API_URL` (never Apple, which
    /// refuses the demo key).
    func looksUp(environment: [String: String] = CommandContext.current.environment) -> Bool {
        let given = connect.credentials
        let anyCredential =
            [given.keyFile, given.keyEnv, given.keyId, given.issuerId, given.bundleId, given.config].contains {
                $0 != nil
            }
            || [
                "OFFERKIT_KEY_FILE", "OFFERKIT_KEY", "OFFERKIT_KEY_ID", "OFFERKIT_ISSUER_ID", "OFFERKIT_BUNDLE_ID",
                "OFFERKIT_CONFIG",
            ].contains { environment[$0] != nil }
        if anyCredential { return true }
        let elsewhere =
            connect.apiBaseURL != nil || environment[ConnectOptions.baseURLVariable].map { !$0.isEmpty } == true
        return elsewhere && Credentials.demoConfigPath() != nil
    }

    /// The campaign with the recorded price points filled in, then those App Store Connect lists
    /// for the prices still open (``looksUp(environment:)``), at most `--parallel` look-ups at a
    /// time; `lookedUp` is what to record. Without credentials nothing is looked up, and the
    /// planner refuses each open price (``explained(_:)``).
    func resolve(_ campaign: Campaign, recorded: [ResolvedPrice]) async throws -> PriceResolution.Resolved {
        let known = PriceResolution.applying(recorded, to: campaign)
        let open = PriceResolution.unresolved(in: known)
        guard !open.isEmpty, looksUp() else { return PriceResolution.Resolved(campaign: known, lookedUp: []) }
        try Self.checkProductIds(open)
        let parallel = try connect.settings().parallel
        return try await LookupOptions.withLister(connect) { lister in
            let resolution = PriceResolution(recorded: recorded, maximumConcurrentLookups: parallel) { query in
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

    /// Refuses a product id that is not one segment of a URL path (empty, only dots, with `/`,
    /// `?`, `#`, a space or a control character, or longer than App Store Connect's ids), naming
    /// the prices that need it, before anything is sent.
    static func checkProductIds(_ open: [PriceResolution.Unresolved]) throws {
        for price in open {
            let id = price.query.product.id
            guard !ConnectResource.isValidId(id) else { continue }
            let paths = open.filter { $0.query.product == price.query.product }.map(\.path)
            throw CLIError.invalidInput(
                "\(paths.joined(separator: ", ")): the \(price.query.product.noun) id \(ProblemText.quoted(id)) "
                    + "is not an App Store Connect id (\(ConnectResource.idRule)), so its price points cannot be looked "
                    + "up; write the id `offerkit codes lookup` lists")
        }
    }

    /// The planner's refusal of a customer price nobody looked up, with the way `codes plan` and
    /// `codes apply` offer beside the look-up command: the API key.
    static func explained(_ error: RequestPlanningError) -> any Error {
        guard case .pricePointNotLookedUp = error, let text = error.errorDescription else { return error }
        return CLIError.invalidInput(
            text + "; or give this command that key, and it looks the price point up and records it in the ledger")
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
