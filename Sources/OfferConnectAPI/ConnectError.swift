import Foundation
import OfferCodes

/// Why `codes apply`, `codes fetch`, `codes deactivate --apply` or `codes lookup` stopped. Messages never hold a
/// token or key material.
public enum ConnectError: Error, Equatable, Sendable {
    /// `--api-base-url` is not usable; `reason` says why.
    case invalidBaseURL(String, reason: String)
    /// App Store Connect refused the API key or token (401 or 403): nothing more was sent.
    case notAuthorized(status: Int, detail: String)
    /// App Store Connect could not be reached, or kept failing, after the retries; `reason` says
    /// what happened last. What succeeded is in the ledger: run again to continue.
    case unreachable(reason: String)
    /// App Store Connect answered something OfferKit cannot use (a 201 without an id, a body that
    /// is not JSON:API); `what` says what.
    case unexpectedAnswer(request: String, what: String)
    /// A lookup after an unknown outcome could not tell whether the resource exists: `reason`
    /// says why. The resource stays recorded as sent; the next run looks again.
    case lookupFailed(request: String, reason: String)
    /// The API key's hourly request limit is spent (`X-Rate-Limit` says none are left).
    case hourlyLimitSpent(limit: Int)
    /// Resources recorded as created were created from other request bodies than the campaign
    /// now plans: App Store Connect cannot edit them.
    case planChanged(resources: [String])
    /// App Store Connect refused a change (`PATCH`); `errors` are its errors. Nothing was changed.
    case refused(request: String, errors: String)
    /// The campaign has no resource of that name (for `deactivate --apply`), or it was never created.
    case notCreated(what: String)
    /// App Store Connect's `product` (`subscription` or `in-app purchase`) of id `id` has the
    /// product identifier `connect`, while the campaign, at `paths`, gives it `campaign`: offers
    /// would be created on one product and signed for another. Nothing was created or recorded.
    case productIdMismatch(paths: [String], product: String, id: String, campaign: String, connect: String)
}

extension ConnectError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .invalidBaseURL(let text, let reason):
            return "--api-base-url \(text): \(reason)."
        case .notAuthorized(let status, let detail):
            return "App Store Connect refused the API key (\(status)): \(detail). Nothing more was sent; expected an "
                + "App Store Connect API key with the App Manager or Admin role: check --key-id, --issuer-id (or "
                + "--individual for an individual key) and that the key is not revoked."
        case .unreachable(let reason):
            return "App Store Connect could not be reached: \(reason). Everything that succeeded is recorded in the "
                + "ledger; run the same command again to continue where it stopped."
        case .unexpectedAnswer(let request, let what):
            return "App Store Connect answered \(request) with \(what); expected an answer as documented for API "
                + "4.4.1. Everything that succeeded is recorded; a resource whose outcome is unknown is looked up "
                + "first by the next run."
        case .lookupFailed(let request, let reason):
            return "OfferKit could not tell whether App Store Connect created \(request): \(reason). It stays "
                + "recorded as sent (outcome unknown) and is not sent again until a lookup settles it: run the same "
                + "command again (check the resource in App Store Connect if this repeats)."
        case .hourlyLimitSpent(let limit):
            return "The API key's hourly limit of \(limit) App Store Connect requests is spent (X-Rate-Limit: none "
                + "left). Everything so far is recorded; run the same command again in about an hour (the limit is "
                + "a rolling hour), or with another key."
        case .planChanged(let resources):
            let shown = resources.prefix(5).joined(separator: "; ") + (resources.count > 5 ? "; …" : "")
            return "\(resources.count) resource(s) were created in App Store Connect from other values than the "
                + "campaign now has (\(shown)); App Store Connect cannot edit an offer code once created, and "
                + "`codes apply` never changes an offer it created. Restore the campaign as it was applied, or make a "
                + "new campaign (with new reference names and offer identifiers). Nothing was sent."
        case .refused(let request, let errors):
            return "App Store Connect refused \(request): \(errors). Nothing was changed."
        case .notCreated(let what):
            return "\(what) was not created in App Store Connect by `offerkit codes apply` (the ledger has no id "
                + "for it); expected a resource that `codes apply` created."
        case .productIdMismatch(let paths, let product, let id, let campaign, let connect):
            let lookup = product == "subscription" ? "subscriptions" : "in-app-purchases"
            // Both in full (up to 256 characters): two product IDs may differ only near their ends.
            let ours = ProblemText.quoted(campaign, clippedAt: 256)
            let theirs = ProblemText.quoted(connect, clippedAt: 256)
            return "\(paths.joined(separator: ", ")) \(paths.count == 1 ? "is" : "are") \(ours), but App Store "
                + "Connect's \(product) \(ProblemText.quoted(id)) has the product ID \(theirs): its offers would be "
                + "created on one product and name another in apps and signatures, so no purchase of them could "
                + "succeed. Nothing was created; expected the id and product ID of one product (`offerkit codes lookup "
                + "\(lookup)` lists both)."
        }
    }
}
