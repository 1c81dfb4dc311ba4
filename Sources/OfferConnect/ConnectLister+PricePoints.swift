import OfferCodes
import OfferConnectAPI

extension PricePointQuery.Product {
    /// The list of the product's price points: `/v1/subscriptions/{id}/pricePoints` or
    /// `/v2/inAppPurchases/{id}/pricePoints` (the id percent-encoded).
    package var pricePointsPath: String {
        switch self {
        case .subscription(let id): "/v1/subscriptions/\(ConnectLister.percentEncode(id))/pricePoints"
        case .inAppPurchase(let id): "/v2/inAppPurchases/\(ConnectLister.percentEncode(id))/pricePoints"
        }
    }
}

extension ConnectLister {
    /// The query of a price-point list: `filter[territory]` when a territory is given, each
    /// price point's territory included, the largest page App Store Connect serves.
    package static func pricePointQuery(territory: String?) -> [(String, String)] {
        var query = [("include", "territory"), ("limit", "8000")]
        if let territory { query.insert(("filter[territory]", territory), at: 0) }
        return query
    }

    /// The price points of the query's product in its territory, as `PriceResolution` looks
    /// them up: a price point without a `customerPrice` is left out, one of another territory too.
    ///
    /// - Throws: what ``list(_:query:)`` throws (``NotFound`` when the product does not exist).
    package func pricePoints(_ query: PricePointQuery) async throws -> [PricePoint] {
        let listing = try await list(
            query.product.pricePointsPath, query: Self.pricePointQuery(territory: query.territory))
        return listing.items.compactMap { item in
            guard case .string(let price)? = item.attributes["customerPrice"],
                item.related("territory") == query.territory
            else { return nil }
            return PricePoint(id: item.id, territory: query.territory, customerPrice: price)
        }
    }
}
