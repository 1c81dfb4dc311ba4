/// A customer price a campaign names, with the App Store Connect price point it was resolved to
/// (``PriceResolution``): what the ledger records, so that every later plan of the campaign
/// sends the same price point, whatever App Store Connect lists by then.
public struct ResolvedPrice: Sendable, Hashable {
    /// The product and territory whose price points were looked up.
    public var query: PricePointQuery
    /// The customer price as a number, without leading or trailing zeros
    /// (``CustomerPrice/normalized``: `4.99`, `480`).
    public var customerPrice: String
    /// The id of the price point with that customer price.
    public var pricePoint: String

    public init(query: PricePointQuery, customerPrice: String, pricePoint: String) {
        self.query = query
        self.customerPrice = customerPrice
        self.pricePoint = pricePoint
    }
}
