/// What an API key may do: one scope per kind of operation.
public enum OperationScope: String, Sendable, CaseIterable, Hashable {
    case promotionalOffer = "promotional-offer"
    case legacyPromotionalOffer = "legacy-promotional-offer"
    case introductoryOfferEligibility = "introductory-offer-eligibility"
    case advancedCommerce = "advanced-commerce"
    case serverAPIToken = "server-api-token"
    case connectAPIToken = "connect-api-token"
    case campaigns = "campaigns"
    case metrics = "metrics"

    /// Every scope name, for messages.
    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
