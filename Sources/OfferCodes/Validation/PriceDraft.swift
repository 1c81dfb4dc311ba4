/// One entry of an offer's `prices` as read (see ``OfferDraft``).
struct PriceDraft {
    var territory: String?
    /// The price point, when the entry has one that is a string.
    var pricePoint: String?
    /// The customer price, when the entry has one that is a price.
    var customerPrice: CustomerPrice?
    /// Whether the territory is free: `nil` when the entry does not say clearly (more than one or
    /// none of `pricePoint`, `customerPrice` and `"free": true`, an unreadable `free` or
    /// `customerPrice`; reported by the reader).
    var isFree: Bool?

    init(territory: String?, pricePoint: String?, customerPrice: CustomerPrice? = nil, isFree: Bool?) {
        self.territory = territory
        self.pricePoint = pricePoint
        self.customerPrice = customerPrice
        self.isFree = isFree
    }

    init(_ price: TerritoryPrice) {
        self.init(
            territory: price.territory, pricePoint: price.pricePoint, customerPrice: price.customerPrice,
            isFree: price.isFree)
    }

    /// The entry, when every part of it could be read.
    var territoryPrice: TerritoryPrice? {
        guard let territory, let isFree else { return nil }
        if isFree { return TerritoryPrice(territory: territory, pricePoint: nil) }
        if let pricePoint {
            var price = TerritoryPrice(territory: territory, pricePoint: pricePoint)
            price.customerPrice = customerPrice
            return price
        }
        return customerPrice.map { TerritoryPrice(territory: territory, customerPrice: $0) }
    }
}
