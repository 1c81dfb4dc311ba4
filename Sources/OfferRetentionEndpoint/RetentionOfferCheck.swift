/// Checks a promotional offer a decider of your own names before the endpoint signs it: the
/// embedding service asks its code ledger whether the offer exists for the product (`offerkit
/// codes apply` created it), so that no answer carries a signature App Store Connect would not
/// apply. Rules (``RuleDecider``) are not asked: `offerkit serve` checks them once, before it
/// listens, and a ledger never loses an offer. Apple waits about 700 ms for the whole answer: a
/// check should answer from what it has, not wait for a database.
///
/// Returns `nil` to sign the offer, or why not: the request is then answered `{}` (Apple's default
/// message) as a ``RetentionHookFailure/unusable(reason:)``, and nothing is remembered, so that a
/// retry asks again.
public struct RetentionOfferCheck: Sendable {
    public typealias Check =
        @Sendable (_ bundleId: String, _ productId: String, _ offerIdentifier: String) async
        -> String?

    let check: Check

    public init(_ check: @escaping Check) {
        self.check = check
    }

    /// Why the promotional offer of `decision` may not be signed for the app, or `nil` (other
    /// decisions name no promotional offer).
    func refusal(of decision: RetentionDecision, bundleId: String) async -> String? {
        guard case .promotionalOffer(_, let productId, let offerIdentifier, _, _) = decision else { return nil }
        return await check(bundleId, productId, offerIdentifier)
    }
}
