import OfferJSON

/// Who may redeem: `NEW`, `EXISTING`, `EXPIRED` for subscriptions (App Store Connect's
/// `SubscriptionCustomerEligibility`), `NON_SPENDER`, `ACTIVE_SPENDER`, `CHURNED_SPENDER` for
/// other In-App Purchases.
public enum CustomerEligibility: String, Sendable, CaseIterable, Codable, EnumeratedValue {
    case new = "NEW"
    case existing = "EXISTING"
    case expired = "EXPIRED"
    case nonSpender = "NON_SPENDER"
    case activeSpender = "ACTIVE_SPENDER"
    case churnedSpender = "CHURNED_SPENDER"
}
