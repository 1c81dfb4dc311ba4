import OfferJSON

/// The kind of product an offer discounts, named as App Store Connect names it.
public enum ProductType: String, Sendable, CaseIterable, Codable, EnumeratedValue {
    case autoRenewableSubscription = "AUTO_RENEWABLE_SUBSCRIPTION"
    case nonRenewingSubscription = "NON_RENEWING_SUBSCRIPTION"
    case consumable = "CONSUMABLE"
    case nonConsumable = "NON_CONSUMABLE"

    /// Whether offers use the `subscriptionOfferCodes` resources (auto-renewable subscriptions)
    /// rather than `inAppPurchaseOfferCodes`.
    public var isAutoRenewable: Bool { self == .autoRenewableSubscription }

    /// The payment modes App Store Connect allows for this product type.
    public var allowedPaymentModes: [PaymentMode] {
        isAutoRenewable ? [.freeTrial, .payAsYouGo, .payUpFront] : [.oneTime]
    }

    /// The customer eligibilities App Store Connect allows for this product type.
    public var allowedCustomerEligibilities: [CustomerEligibility] {
        isAutoRenewable ? [.new, .existing, .expired] : [.nonSpender, .activeSpender, .churnedSpender]
    }

    /// Words for messages: "auto-renewable subscription", "consumable", …
    public var displayName: String {
        switch self {
        case .autoRenewableSubscription: "auto-renewable subscription"
        case .nonRenewingSubscription: "non-renewing subscription"
        case .consumable: "consumable"
        case .nonConsumable: "non-consumable"
        }
    }
}
