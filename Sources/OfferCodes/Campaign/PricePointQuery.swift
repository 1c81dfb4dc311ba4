/// Which price points ``PriceResolution`` asks for: those of one product in one territory.
public struct PricePointQuery: Sendable, Hashable, CustomStringConvertible {
    /// The product whose price points App Store Connect lists.
    public enum Product: Sendable, Hashable {
        /// An auto-renewable subscription, by its App Store Connect id
        /// (`GET /v1/subscriptions/{id}/pricePoints`).
        case subscription(id: String)
        /// Another in-app purchase, by its App Store Connect id (`GET /v2/inAppPurchases/{id}/pricePoints`).
        case inAppPurchase(id: String)

        /// The product whose price points an offer of `product` is priced with.
        public init(_ product: ProductReference) {
            self =
                product.type == .autoRenewableSubscription
                ? .subscription(id: product.id) : .inAppPurchase(id: product.id)
        }

        /// The flag of `offerkit codes lookup price-points` that names it: `--subscription 6450000001`
        /// or `--in-app-purchase 6450000009`. An id that is not plain letters, digits, `.`, `_` and
        /// `-` (validation lets any text through) is written `ID`, so that the command printed in an
        /// error never carries campaign text as options or shell syntax.
        public var lookupFlag: String {
            let (flag, id) =
                switch self {
                case .subscription(let id): ("--subscription", id)
                case .inAppPurchase(let id): ("--in-app-purchase", id)
                }
            let plain =
                !id.isEmpty && id.utf8.count <= 64
                && id.unicodeScalars.allSatisfy {
                    $0.isASCII
                        && ($0.properties.isAlphabetic || $0.properties.numericType != nil
                            || "._-".unicodeScalars.contains($0))
                }
            return "\(flag) \(plain ? id : "ID")"
        }
    }

    public var product: Product
    /// The territory's App Store Connect id (`filter[territory]`).
    public var territory: String

    public init(product: Product, territory: String) {
        self.product = product
        self.territory = territory
    }

    /// `subscription 6450000001 in USA`.
    public var description: String {
        switch product {
        case .subscription(let id): "subscription \(id) in \(territory)"
        case .inAppPurchase(let id): "in-app purchase \(id) in \(territory)"
        }
    }
}
