import ArgumentParser
import Foundation
import OfferCodes
import OfferConnect
import OfferKitSigningCLI

/// `offerkit codes lookup price-points (--subscription ID | --in-app-purchase ID) [--territory T]
/// [--customer-price P]` (`GET /v1/subscriptions/{id}/pricePoints`,
/// `GET /v2/inAppPurchases/{id}/pricePoints`).
struct CodesLookupPricePoints: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "price-points",
        abstract: "List a product's price points by territory, or find the one of a customer price.",
        discussion: """
            The price points of a subscription (GET /v1/subscriptions/{id}/pricePoints) or an in-app purchase \
            (GET /v2/inAppPurchases/{id}/pricePoints), with their territory and currency: id, territory, \
            currency, customer price, proceeds. --customer-price (with --territory) prints only the id of the \
            price point whose customer price is that amount (compared as decimals: 4.99 = 4.990), the value a \
            campaign's {"territory", "pricePoint"} names; when none has it, the error lists the nearest prices.
            """)

    @OptionGroup var options: LookupOptions

    @Option(help: "A subscription's App Store Connect id (from `codes lookup subscriptions`).")
    var subscription: String?

    @Option(
        name: .customLong("in-app-purchase"),
        help: "An in-app purchase's App Store Connect id (from `codes lookup in-app-purchases`).")
    var inAppPurchase: String?

    @Option(help: "Only this territory's price points: its App Store Connect id (ISO 3166-1 alpha-3, e.g. USA).")
    var territory: String?

    @Option(
        name: .customLong("customer-price"),
        help: "With --territory: only the price point of this customer price (e.g. 4.99, in the territory's currency).")
    var customerPrice: String?

    /// The product in `--format json`.
    struct Product: Encodable {
        /// `subscription` or `inAppPurchase`.
        var type: String
        var id: String
    }

    /// One price point in `--format json`.
    struct PricePoint: Encodable {
        var id: String
        var territory: String?
        var currency: String?
        var customerPrice: String?
        var proceeds: String?
    }

    /// The JSON output.
    struct Report: Encodable {
        var product: Product
        var territory: String?
        var customerPrice: String?
        var pricePoints: [PricePoint]
    }

    func run() async throws {
        guard (subscription == nil) != (inAppPurchase == nil) else {
            throw CLIError.usage("give exactly one of --subscription and --in-app-purchase")
        }
        let owner: PricePointQuery.Product =
            if let subscription {
                .subscription(id: try LookupOptions.checkedId(subscription, flag: "--subscription"))
            } else {
                .inAppPurchase(id: try LookupOptions.checkedId(inAppPurchase ?? "", flag: "--in-app-purchase"))
            }
        let product = Product(type: owner.type, id: owner.id)
        if let territory, territory.utf8.count != 3 || !territory.utf8.allSatisfy({ (65...90).contains($0) }) {
            throw CLIError.usage(
                "--territory must be a territory's App Store Connect id: 3 capital letters (ISO 3166-1 alpha-3) "
                    + "such as USA, not \(territory.prefix(40))")
        }
        let wanted = try customerPrice.map(Self.checkedPrice)
        if customerPrice != nil, territory == nil {
            throw CLIError.usage("--customer-price needs --territory: a customer price is in a territory's currency")
        }
        let isSubscription = owner.type == PricePointQuery.Product.subscriptionType
        let flag = isSubscription ? "--subscription" : "--in-app-purchase"
        let query = ConnectLister.pricePointQuery(territory: territory)
        let listing = try await options.withLister { lister in
            try await LookupOptions.list(
                lister, owner.pricePointsPath, query: query,
                missing:
                    "\(flag) \(product.id): App Store Connect has no \(owner.noun) with this id")
        }
        var points = listing.items.map { item in
            let territory = item.related("territory")
            let currency = territory.flatMap { listing.included("territories", $0) }.flatMap {
                LookupOptions.text($0, "currency")
            }
            return PricePoint(
                id: item.id, territory: territory, currency: currency,
                customerPrice: LookupOptions.text(item, "customerPrice"), proceeds: LookupOptions.text(item, "proceeds")
            )
        }
        if let wanted, let customerPrice, let territory {
            let matching = points.filter { $0.customerPrice.flatMap { Decimal(string: $0) } == wanted }
            guard !matching.isEmpty else {
                throw CLIError.invalidInput(
                    Self.noMatch(
                        customerPrice, wanted: wanted, territory: territory, flag: "\(flag) \(product.id)", points))
            }
            points = matching
        }
        switch options.format {
        case .json:
            try Output.json(
                Report(product: product, territory: territory, customerPrice: customerPrice, pricePoints: points))
        case .text:
            if customerPrice != nil {
                for point in points { Output.line(point.id) }
            } else {
                LookupOptions.printRows(
                    points.map { [$0.id, $0.territory, $0.currency, $0.customerPrice, $0.proceeds] })
            }
        }
    }

    /// `--customer-price` as a decimal: digits with an optional fraction (`4.99`, `120`, `0.5`).
    static func checkedPrice(_ text: String) throws -> Decimal {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let digits = { (part: Substring) in !part.isEmpty && part.utf8.allSatisfy { (48...57).contains($0) } }
        guard parts.count <= 2, digits(parts[0]), parts.count == 1 || digits(parts[1]), text.utf8.count <= 24,
            let value = Decimal(string: text)
        else {
            throw CLIError.usage(
                "--customer-price must be an amount such as 4.99 (digits, optionally a '.' and more digits, no "
                    + "currency sign), not \(text.prefix(40))")
        }
        return value
    }

    /// The error when no price point has the customer price: the nearest prices below and above. (Their ids
    /// are not in it: base64url ids look like key material, which errors never show; the list shows them.)
    static func noMatch(
        _ text: String, wanted: Decimal, territory: String, flag: String, _ points: [PricePoint]
    ) -> String {
        let priced = points.compactMap { point in
            point.customerPrice.flatMap { Decimal(string: $0) }.map { (price: $0, text: point.customerPrice ?? "") }
        }.sorted { $0.price < $1.price }
        guard let lowest = priced.first, let highest = priced.last else {
            return "\(flag) has no price points in \(territory) (App Store Connect listed none): no customer price "
                + "\(text) there; check the territory and that the product is available in it"
        }
        let split = priced.firstIndex { $0.price > wanted } ?? priced.count
        let near = priced[max(0, split - 3)..<min(priced.count, split + 3)].map(\.text).joined(separator: ", ")
        let currency = points.first?.currency.map { " \($0)" } ?? ""
        return "\(flag): no price point in \(territory) has the customer price \(text)\(currency); expected one of "
            + "App Store Connect's \(priced.count) prices there (from \(lowest.text) to \(highest.text)); nearest: "
            + "\(near) (without --customer-price the list shows each with its id)"
    }
}
