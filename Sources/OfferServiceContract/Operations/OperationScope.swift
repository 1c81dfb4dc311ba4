import OfferJSON
import OfferSigning

/// What an API key may do: one scope per signing operation, named as the operation
/// (`SigningOperation`), plus `campaigns`, `codes` and `metrics`.
public enum OperationScope: Sendable, Hashable, CaseIterable, RawRepresentable, EnumeratedValue {
    /// Making signatures or tokens of one kind.
    case signing(SigningOperation)
    /// Validating and planning offer-code campaigns.
    case campaigns
    /// Handing out offer codes from the service's ledger, and reading a campaign's status there.
    case codes
    /// Reading `/metrics`.
    case metrics

    public static let promotionalOffer = OperationScope.signing(.promotionalOffer)
    public static let legacyPromotionalOffer = OperationScope.signing(.legacyPromotionalOffer)
    public static let introductoryOfferEligibility = OperationScope.signing(.introductoryOfferEligibility)
    public static let advancedCommerce = OperationScope.signing(.advancedCommerce)
    public static let serverAPIToken = OperationScope.signing(.serverAPIToken)
    public static let connectAPIToken = OperationScope.signing(.connectAPIToken)

    public static var allCases: [OperationScope] {
        SigningOperation.allCases.map(signing) + [.campaigns, .codes, .metrics]
    }

    /// The scope named `rawValue`: an operation's name, `campaigns`, `codes` or `metrics`.
    public init?(rawValue: String) {
        switch rawValue {
        case "campaigns": self = .campaigns
        case "codes": self = .codes
        case "metrics": self = .metrics
        default:
            guard let operation = SigningOperation(rawValue: rawValue) else { return nil }
            self = .signing(operation)
        }
    }

    /// The scope named `name` in any case, also by a deprecated spelling of an operation
    /// (`SigningOperation.deprecatedSpellings`), and whether that spelling was deprecated.
    public static func named(_ name: String) -> (scope: OperationScope, deprecated: Bool)? {
        if let scope = OperationScope(anyCase: name) { return (scope, false) }
        guard let (operation, deprecated) = SigningOperation.named(name) else { return nil }
        return (.signing(operation), deprecated)
    }

    public var rawValue: String {
        switch self {
        case .signing(let operation): operation.rawValue
        case .campaigns: "campaigns"
        case .codes: "codes"
        case .metrics: "metrics"
        }
    }

    /// Every scope name, for messages.
    package static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
