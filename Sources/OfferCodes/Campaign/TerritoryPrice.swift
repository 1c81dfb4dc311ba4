/// The offer's price in one territory: an App Store Connect price point, or free.
public struct TerritoryPrice: Sendable, Equatable {
    /// The territory's App Store Connect id, for example `USA` or `JPN`.
    public var territory: String
    /// The id of a `subscriptionPricePoints` or `inAppPurchasePricePoints` resource; `nil` = free.
    public var pricePoint: String?

    public init(territory: String, pricePoint: String?) {
        self.territory = territory
        self.pricePoint = pricePoint
    }

    /// Whether the offer is free in this territory.
    public var isFree: Bool { pricePoint == nil }
}
