/// What a snippet does: one signing operation or token of the service. Named like the API key
/// scopes, since each calls the endpoint that needs that scope.
public enum SnippetOperation: String, CaseIterable, Sendable {
    case promotionalOffer = "promotional-offer"
    case legacyPromotionalOffer = "legacy-promotional-offer"
    case introductoryOfferEligibility = "introductory-offer-eligibility"
    case advancedCommerce = "advanced-commerce"
    case serverAPIToken = "server-api-token"
    case connectAPIToken = "connect-api-token"

    /// The API key scope the call needs.
    public var scope: OperationScope {
        switch self {
        case .promotionalOffer: .promotionalOffer
        case .legacyPromotionalOffer: .legacyPromotionalOffer
        case .introductoryOfferEligibility: .introductoryOfferEligibility
        case .advancedCommerce: .advancedCommerce
        case .serverAPIToken: .serverAPIToken
        case .connectAPIToken: .connectAPIToken
        }
    }

    /// The service operation that the snippet calls (its path and `operationId`).
    var serviceOperation: ServiceOperation {
        guard let operation = ServiceOperation.all.first(where: { $0.scope == scope }) else {
            preconditionFailure("no service operation has the scope \(scope.rawValue)")
        }
        return operation
    }

    /// The template file name for this operation, such as `promotional-offer.mustache`.
    var fileName: String { rawValue + ".mustache" }
}
