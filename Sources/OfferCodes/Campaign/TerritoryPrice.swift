/// An offer's price in one territory: an App Store Connect price point, a customer price to look
/// the price point up by, or free.
public struct TerritoryPrice: Sendable, Equatable {
    /// The territory's App Store Connect id, for example `USA` or `JPN`.
    public var territory: String
    /// The id of a `subscriptionPricePoints` or `inAppPurchasePricePoints` resource; `nil` = free,
    /// or not looked up yet when ``customerPrice`` is set.
    public var pricePoint: String?
    /// The price customers pay in the territory's currency, when the campaign names the price that
    /// way (`{"territory": "USA", "customerPrice": "4.99"}`); ``PriceResolution`` fills
    /// ``pricePoint`` from it before requests are planned.
    public var customerPrice: CustomerPrice?

    public init(territory: String, pricePoint: String?) {
        self.territory = territory
        self.pricePoint = pricePoint
        customerPrice = nil
    }

    /// A price named by what customers pay, its price point not looked up yet.
    public init(territory: String, customerPrice: CustomerPrice) {
        self.territory = territory
        pricePoint = nil
        self.customerPrice = customerPrice
    }

    /// Whether the offer is free in this territory.
    public var isFree: Bool { pricePoint == nil && customerPrice == nil }

    /// Whether the price is named by its customer price and its price point is not known yet.
    public var needsPricePoint: Bool { pricePoint == nil && customerPrice != nil }
}
