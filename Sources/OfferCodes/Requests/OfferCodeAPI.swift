/// The App Store Connect resources of one offer: `subscriptionOfferCodes…` for auto-renewable
/// subscriptions, `inAppPurchaseOfferCodes…` for every other product type (API 4.4.1).
package enum OfferCodeAPI: Sendable {
    case subscription
    case inAppPurchase

    package init(_ productType: ProductType) {
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
    package var offerType: String { "\(stem)OfferCodes" }
    package var oneTimeUseType: String { "\(stem)OfferCodeOneTimeUseCodes" }
    package var customCodeType: String { "\(stem)OfferCodeCustomCodes" }

    package var offerSchema: String { "\(schemaStem)CreateRequest" }
    package var oneTimeUseSchema: String { "\(schemaStem)OneTimeUseCodeCreateRequest" }
    package var customCodeSchema: String { "\(schemaStem)CustomCodeCreateRequest" }

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
    package static func createPath(_ resourceType: String) -> String { "/v1/\(resourceType)" }

    /// The list of a product's offer codes (API 4.4.1): `GET /v1/subscriptions/{id}/offerCodes`
    /// or `GET /v2/inAppPurchases/{id}/offerCodes`.
    package func offerListPath(productId: String) -> String {
        switch self {
        case .subscription: "/v1/subscriptions/\(productId)/offerCodes"
        case .inAppPurchase: "/v2/inAppPurchases/\(productId)/offerCodes"
        }
    }

    /// The list of an offer's one-time-use batches or custom codes:
    /// `GET /v1/{offerType}/{id}/oneTimeUseCodes` or `…/customCodes`.
    package func childListPath(offerId: String, kind: ConnectResource.Kind) -> String {
        "/v1/\(offerType)/\(offerId)/" + (kind == .customCode ? "customCodes" : "oneTimeUseCodes")
    }

    /// The one-time-use codes Apple generated for a batch, as `text/csv`.
    package func valuesPath(batchId: String) -> String { "/v1/\(oneTimeUseType)/\(batchId)/values" }

    /// The resource type of a kind of resource.
    package func resourceType(_ kind: ConnectResource.Kind) -> String {
        switch kind {
        case .offer: offerType
        case .oneTimeUse: oneTimeUseType
        case .customCode: customCodeType
        }
    }

    /// The offer code resource type of a product type: `subscriptionOfferCodes` or `inAppPurchaseOfferCodes`.
    public static func offerResourceType(_ productType: ProductType) -> String { OfferCodeAPI(productType).offerType }
}
