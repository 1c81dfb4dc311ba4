/// Fills in the price point of every price a campaign names by its customer price
/// (`{"territory": "USA", "customerPrice": "4.99"}`), so that ``RequestPlanner`` can plan it: first
/// from the price points resolved before (``ResolvedPrice``, as a ledger records them), then from
/// App Store Connect's price points.
///
/// Each product and territory is looked up once, however many prices name it, and only when a
/// price there has no recorded price point; at most ``maximumConcurrentLookups`` look-ups run at
/// once. The outcome does not depend on the order the answers come in. A customer price matches
/// a price point whose `customerPrice` is the same number (`4.99`, `480` = `480.0`). Every price
/// that matches no price point, or more than one, is reported at once, with its path.
public struct PriceResolution: Sendable {
    /// Lists the price points of one product in one territory (App Store Connect, or a recorded answer).
    public typealias Lookup = @Sendable (PricePointQuery) async throws -> [PricePoint]

    /// A price that names a customer price and has no price point yet.
    public struct Unresolved: Sendable, Equatable {
        /// Where the campaign names it: `$.winBackOffers[0].prices[0].customerPrice`.
        public var path: String
        /// The product and territory whose price points have it.
        public var query: PricePointQuery
        /// What customers pay, as the campaign wrote it.
        public var customerPrice: CustomerPrice
    }

    /// What ``resolve(_:)`` made of a campaign.
    public struct Resolved: Sendable {
        /// The campaign with the price point of each customer price filled in (the customer price kept).
        public var campaign: Campaign
        /// The prices resolved by a look-up now (not from the recorded ones), in campaign order, each once.
        public var lookedUp: [ResolvedPrice]

        public init(campaign: Campaign, lookedUp: [ResolvedPrice]) {
            self.campaign = campaign
            self.lookedUp = lookedUp
        }
    }

    let recorded: [ResolvedPrice]
    let lookup: Lookup
    /// How many look-ups run at once (at least 1).
    public let maximumConcurrentLookups: Int

    /// - Parameters:
    ///   - recorded: price points resolved before; a price they cover is not looked up again.
    ///   - maximumConcurrentLookups: how many look-ups run at once (values below 1 count as 1).
    ///   - lookup: lists price points, for the prices `recorded` does not cover.
    public init(recorded: [ResolvedPrice] = [], maximumConcurrentLookups: Int = 1, lookup: @escaping Lookup) {
        self.recorded = recorded
        self.maximumConcurrentLookups = max(1, maximumConcurrentLookups)
        self.lookup = lookup
    }

    /// The campaign with the price point of each customer price filled in (the customer price kept).
    ///
    /// - Throws: ``CampaignProblems`` (rule `customer-price-not-found` or `customer-price-ambiguous`,
    ///   at the price's `customerPrice`) listing every price that could not be resolved; whatever
    ///   the lookup throws; `CancellationError` when the task is cancelled.
    public func resolve(_ campaign: Campaign) async throws -> Campaign {
        try await resolution(of: campaign).campaign
    }

    /// The campaign resolved (see ``resolve(_:)``), and which prices a look-up resolved, to record.
    public func resolution(of campaign: Campaign) async throws -> Resolved {
        var resolved = Self.applying(recorded, to: campaign)
        let open = Self.unresolved(in: resolved)
        var queries: [PricePointQuery] = []
        for price in open where !queries.contains(price.query) { queries.append(price.query) }
        let lists = try await lookUp(queries)
        var problems: [ValidationProblem] = []
        var lookedUp: [ResolvedPrice] = []
        for slot in Self.slots(of: resolved) {
            let price = resolved[keyPath: slot.keyPath]
            guard price.needsPricePoint, let customerPrice = price.customerPrice else { continue }
            let query = PricePointQuery(product: slot.product, territory: price.territory)
            let points = lists[query] ?? []
            let matches = points.filter { customerPrice.isSame(as: $0.customerPrice) }
            let entryPath = "\(slot.path).customerPrice"
            if matches.count == 1 {
                resolved[keyPath: slot.keyPath].pricePoint = matches[0].id
                let found = ResolvedPrice(
                    query: query, customerPrice: customerPrice.normalized, pricePoint: matches[0].id)
                if !lookedUp.contains(found) { lookedUp.append(found) }
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
        guard problems.isEmpty else { throw CampaignProblems(problems) }
        return Resolved(campaign: resolved, lookedUp: lookedUp)
    }

    /// The price points of each query (those of its territory only), looked up at most
    /// ``maximumConcurrentLookups`` at a time.
    private func lookUp(_ queries: [PricePointQuery]) async throws -> [PricePointQuery: [PricePoint]] {
        let lookup = lookup
        return try await withThrowingTaskGroup(of: (PricePointQuery, [PricePoint]).self) { group in
            var lists: [PricePointQuery: [PricePoint]] = [:]
            var next = queries.makeIterator()
            func start() -> Bool {
                guard let query = next.next() else { return false }
                group.addTask { (query, try await lookup(query).filter { $0.territory == query.territory }) }
                return true
            }
            for _ in 0..<maximumConcurrentLookups where !start() { break }
            while let (query, points) = try await group.next() {
                try Task.checkCancellation()
                lists[query] = points
                _ = start()
            }
            return lists
        }
    }

    /// The campaign with the price points of `recorded` filled in; nothing is looked up.
    public static func applying(_ recorded: [ResolvedPrice], to campaign: Campaign) -> Campaign {
        guard !recorded.isEmpty else { return campaign }
        var known: [PricePointQuery: [String: String]] = [:]
        for price in recorded { known[price.query, default: [:]][price.customerPrice] = price.pricePoint }
        var resolved = campaign
        for slot in slots(of: campaign) {
            let price = campaign[keyPath: slot.keyPath]
            guard price.needsPricePoint, let customerPrice = price.customerPrice else { continue }
            let query = PricePointQuery(product: slot.product, territory: price.territory)
            if let id = known[query]?[customerPrice.normalized] { resolved[keyPath: slot.keyPath].pricePoint = id }
        }
        return resolved
    }

    /// The prices of `campaign` that name a customer price and have no price point yet, in campaign order.
    public static func unresolved(in campaign: Campaign) -> [Unresolved] {
        slots(of: campaign).compactMap { slot in
            let price = campaign[keyPath: slot.keyPath]
            guard price.needsPricePoint, let customerPrice = price.customerPrice else { return nil }
            return Unresolved(
                path: "\(slot.path).customerPrice",
                query: PricePointQuery(product: slot.product, territory: price.territory), customerPrice: customerPrice)
        }
    }

    /// One price of a campaign: where it is, the product whose price points it names, and its
    /// path (`$.promotionalOffers[0].prices[1]`).
    private struct Slot {
        let keyPath: WritableKeyPath<Campaign, TerritoryPrice>
        let product: PricePointQuery.Product
        let path: String
    }

    /// Every price of the campaign, in campaign order.
    private static func slots(of campaign: Campaign) -> [Slot] {
        var slots: [Slot] = []
        for (index, offer) in campaign.offers.enumerated() {
            for entry in offer.prices.indices {
                slots.append(
                    Slot(
                        keyPath: \.offers[index].prices[entry], product: PricePointQuery.Product(offer.product),
                        path: "$.offers[\(index)].prices[\(entry)]"))
            }
        }
        func add(
            _ list: String, _ terms: [SubscriptionOfferTerms],
            _ keyPath: (Int) -> WritableKeyPath<Campaign, SubscriptionOfferTerms>
        ) {
            for (index, offer) in terms.enumerated() {
                for entry in offer.prices.indices {
                    slots.append(
                        Slot(
                            keyPath: keyPath(index).appending(path: \.prices[entry]),
                            product: .subscription(id: offer.subscription.id),
                            path: "$.\(list)[\(index)].prices[\(entry)]"))
                }
            }
        }
        add("promotionalOffers", campaign.promotionalOffers.map(\.terms)) { \.promotionalOffers[$0].terms }
        add("introductoryOffers", campaign.introductoryOffers.map(\.terms)) { \.introductoryOffers[$0].terms }
        add("winBackOffers", campaign.winBackOffers.map(\.terms)) { \.winBackOffers[$0].terms }
        return slots
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
