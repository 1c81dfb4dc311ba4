/// The App Store Connect resources of one offer: `subscriptionOfferCodes…` for auto-renewable
/// subscriptions, `inAppPurchaseOfferCodes…` for every other product type (API 4.4.1).
enum OfferCodeAPI: Sendable {
    case subscription
    case inAppPurchase

    init(_ productType: ProductType) {
        self = productType.isAutoRenewable ? .subscription : .inAppPurchase
    }

    /// `subscription` or `inAppPurchase`: the prefix of the offer's resource types.
    private var stem: String {
        switch self {
        case .subscription: "subscription"
        case .inAppPurchase: "inAppPurchase"
        }
    }

    /// `SubscriptionOfferCode` or `InAppPurchaseOfferCode`: the prefix of the request schemas.
    private var schemaStem: String {
        switch self {
        case .subscription: "SubscriptionOfferCode"
        case .inAppPurchase: "InAppPurchaseOfferCode"
        }
    }

    /// The offer's resource type, which is also the last segment of its create path.
    var offerType: String { "\(stem)OfferCodes" }
    var oneTimeUseType: String { "\(stem)OfferCodeOneTimeUseCodes" }
    var customCodeType: String { "\(stem)OfferCodeCustomCodes" }

    var offerSchema: String { "\(schemaStem)CreateRequest" }
    var oneTimeUseSchema: String { "\(schemaStem)OneTimeUseCodeCreateRequest" }
    var customCodeSchema: String { "\(schemaStem)CustomCodeCreateRequest" }

    /// The relationship from the offer to the product, and the product's resource type.
    var productRelationship: (name: String, type: String) {
        switch self {
        case .subscription: ("subscription", "subscriptions")
        case .inAppPurchase: ("inAppPurchase", "inAppPurchases")
        }
    }

    /// The resource type of the offer's inline prices.
    var priceType: String {
        switch self {
        case .subscription: "subscriptionOfferCodePrices"
        case .inAppPurchase: "inAppPurchaseOfferPrices"
        }
    }

    /// The relationship from an inline price to its price point, and the price point's resource type.
    var pricePointRelationship: (name: String, type: String) {
        switch self {
        case .subscription: ("subscriptionPricePoint", "subscriptionPricePoints")
        case .inAppPurchase: ("pricePoint", "inAppPurchasePricePoints")
        }
    }

    /// The create path of a resource type: `/v1/<type>`.
    static func createPath(_ resourceType: String) -> String { "/v1/\(resourceType)" }
}
