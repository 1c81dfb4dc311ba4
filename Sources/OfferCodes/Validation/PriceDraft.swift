/// One entry of an offer's `prices` as read (see ``OfferDraft``).
struct PriceDraft {
    var territory: String?
    /// The price point, when the entry has one that is a string.
    var pricePoint: String?
    /// Whether the territory is free: `nil` when the entry does not say clearly (both or neither
    /// of `pricePoint` and `"free": true`, or an unreadable `free`; reported by the reader).
    var isFree: Bool?

    init(territory: String?, pricePoint: String?, isFree: Bool?) {
        self.territory = territory
        self.pricePoint = pricePoint
        self.isFree = isFree
    }

    init(_ price: TerritoryPrice) {
        self.init(territory: price.territory, pricePoint: price.pricePoint, isFree: price.isFree)
    }

    /// The entry, when every part of it could be read.
    var territoryPrice: TerritoryPrice? {
        guard let territory, let isFree else { return nil }
        if isFree { return TerritoryPrice(territory: territory, pricePoint: nil) }
        guard let pricePoint else { return nil }
        return TerritoryPrice(territory: territory, pricePoint: pricePoint)
    }
}
