/// One of App Store Connect's price points in one territory, as its price-point lists give it
/// (`GET /v1/subscriptions/{id}/pricePoints`, `GET /v2/inAppPurchases/{id}/pricePoints`).
public struct PricePoint: Sendable, Equatable {
    /// The id of the `subscriptionPricePoints` or `inAppPurchasePricePoints` resource.
    public var id: String
    /// The territory's App Store Connect id, for example `USA`.
    public var territory: String
    /// What customers pay, as App Store Connect writes it (`"4.99"`, `"480.0"`).
    public var customerPrice: String

    public init(id: String, territory: String, customerPrice: String) {
        self.id = id
        self.territory = territory
        self.customerPrice = customerPrice
    }
}
