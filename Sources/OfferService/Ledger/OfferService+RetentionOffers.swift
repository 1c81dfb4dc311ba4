import OfferLedger
import OfferRetentionEndpoint

extension OfferService {
    /// With a code ledger and Retention Messaging rules, checks that each rule's promotional offer
    /// is one of its product's offers the ledger records as created by `offerkit codes apply`
    /// (`AppliedPromotionalOffers`): an offer App Store Connect does not have would be signed into
    /// every matching answer, and fail on the customer's device. A product the ledger knows no
    /// promotional offer of is not checked. A decider of the embedding app's own is checked at each
    /// answer instead (`RetentionOfferCheck`): an unknown offer is answered `{}`. `offerkit serve`
    /// runs this before it listens.
    ///
    /// - Parameter source: the configuration's file, for the problems.
    /// - Throws: `ConfigurationError.invalidFields` with a problem per rule, at
    ///   `retention.apps["BUNDLE"][N].promotionalOffer.offerIdentifier`; ledger errors.
    public func checkRetentionOffers(source: String) async throws {
        guard let ledger = state.ledger, let decider = state.retention?.responder.decider as? RuleDecider else {
            return
        }
        let offers = try await ledger.ledger.appliedPromotionalOffers()
        var problems: [ConfigurationProblem] = []
        for (bundleId, rules) in decider.rules.sorted(by: { $0.key < $1.key }) {
            for (index, rule) in rules.rules.enumerated() {
                guard case .promotionalOffer(_, let productId, let offerIdentifier, _, _) = rule.decision else {
                    continue
                }
                do {
                    try offers.check(bundleId: bundleId, productId: productId, offerIdentifier: offerIdentifier)
                } catch {
                    problems.append(
                        ConfigurationProblem(
                            source: source,
                            field: "retention.apps[\"\(bundleId)\"][\(index)].promotionalOffer.offerIdentifier",
                            message: error.localizedDescription))
                }
            }
        }
        if !problems.isEmpty { throw ConfigurationError.invalidFields(problems) }
    }
}
