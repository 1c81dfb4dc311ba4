/// Fills in the price point of every price a campaign names by its customer price
/// (`{"territory": "USA", "customerPrice": "4.99"}`), from App Store Connect's price points, so
/// that ``RequestPlanner`` can plan it.
///
/// Each product and territory is looked up once, however many prices name it. A customer price
/// matches a price point whose `customerPrice` is the same number (`4.99`, `480` = `480.0`). Every
/// price that matches no price point, or more than one, is reported at once, with its path.
public struct PriceResolution: Sendable {
    /// Lists the price points of one product in one territory (App Store Connect, or a recorded answer).
    public typealias Lookup = @Sendable (PricePointQuery) async throws -> [PricePoint]

    let lookup: Lookup

    public init(lookup: @escaping Lookup) {
        self.lookup = lookup
    }

    /// The campaign with the price point of each customer price filled in (the customer price kept).
    ///
    /// - Throws: ``CampaignProblems`` (rule `customer-price-not-found` or `customer-price-ambiguous`,
    ///   at the price's `customerPrice`) listing every price that could not be resolved; whatever
    ///   the lookup throws; `CancellationError` when the task is cancelled.
    public func resolve(_ campaign: Campaign) async throws -> Campaign {
        var resolved = campaign
        var cache: [PricePointQuery: [PricePoint]] = [:]
        var problems: [ValidationProblem] = []
        func resolve(_ prices: inout [TerritoryPrice], product: PricePointQuery.Product, at path: String) async throws {
            for index in prices.indices {
                guard prices[index].needsPricePoint, let customerPrice = prices[index].customerPrice else { continue }
                try Task.checkCancellation()
                let query = PricePointQuery(product: product, territory: prices[index].territory)
                let points: [PricePoint]
                if let known = cache[query] {
                    points = known
                } else {
                    points = try await lookup(query).filter { $0.territory == query.territory }
                    cache[query] = points
                }
                let matches = points.filter { customerPrice.isSame(as: $0.customerPrice) }
                let entryPath = "\(path).prices[\(index)].customerPrice"
                if matches.count == 1 {
                    prices[index].pricePoint = matches[0].id
                } else if matches.isEmpty {
                    problems.append(Self.notFound(customerPrice, query: query, among: points, at: entryPath))
                } else {
                    problems.append(
                        ValidationProblem(
                            path: entryPath, rule: "customer-price-ambiguous",
                            message: "\(query) has \(matches.count) price points with the customer price "
                                + "\(customerPrice) (\(matches.map(\.id).joined(separator: ", "))); write the "
                                + "pricePoint id you mean instead of the customer price",
                            allowed: "a customer price that names exactly one price point"))
                }
            }
        }
        for index in resolved.offers.indices {
            let owner = PricePointQuery.Product(resolved.offers[index].product)
            try await resolve(&resolved.offers[index].prices, product: owner, at: "$.offers[\(index)]")
        }
        for index in resolved.promotionalOffers.indices {
            let owner = PricePointQuery.Product.subscription(
                id: resolved.promotionalOffers[index].terms.subscription.id)
            try await resolve(
                &resolved.promotionalOffers[index].terms.prices, product: owner, at: "$.promotionalOffers[\(index)]")
        }
        for index in resolved.introductoryOffers.indices {
            let owner = PricePointQuery.Product.subscription(
                id: resolved.introductoryOffers[index].terms.subscription.id)
            try await resolve(
                &resolved.introductoryOffers[index].terms.prices, product: owner, at: "$.introductoryOffers[\(index)]")
        }
        for index in resolved.winBackOffers.indices {
            let owner = PricePointQuery.Product.subscription(id: resolved.winBackOffers[index].terms.subscription.id)
            try await resolve(
                &resolved.winBackOffers[index].terms.prices, product: owner, at: "$.winBackOffers[\(index)]")
        }
        guard problems.isEmpty else { throw CampaignProblems(problems) }
        return resolved
    }

    /// The problem of a customer price no price point has, naming the nearest ones.
    private static func notFound(
        _ price: CustomerPrice, query: PricePointQuery, among points: [PricePoint], at path: String
    ) -> ValidationProblem {
        let wanted = Double(price.normalized) ?? 0
        var distances: [(price: String, distance: Double)] = []
        for point in points {
            guard let value = Double(point.customerPrice) else { continue }
            distances.append((point.customerPrice, abs(value - wanted)))
        }
        distances.sort { $0.distance < $1.distance }
        let nearest = distances.prefix(3).map { $0.price }
        let hint =
            nearest.isEmpty
            ? "App Store Connect lists no price points there"
            : "the nearest are \(nearest.joined(separator: ", "))"
        return ValidationProblem(
            path: path, rule: "customer-price-not-found",
            message: "\(query) has no price point with the customer price \(price) (\(hint)); choose one of its "
                + "customer prices, or write a pricePoint id", allowed: "a customer price App Store Connect lists")
    }
}
