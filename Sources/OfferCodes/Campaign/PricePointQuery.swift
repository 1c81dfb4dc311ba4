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

        /// `subscription` for ``subscription(id:)``, the ledger's and `--format json`'s name of the kind.
        public static let subscriptionType = "subscription"
        /// `inAppPurchase` for ``inAppPurchase(id:)``.
        public static let inAppPurchaseType = "inAppPurchase"

        /// ``subscriptionType`` or ``inAppPurchaseType``.
        public var type: String {
            switch self {
            case .subscription: Self.subscriptionType
            case .inAppPurchase: Self.inAppPurchaseType
            }
        }

        /// What it is, as messages name it: `subscription` or `in-app purchase`.
        public var noun: String {
            switch self {
            case .subscription: "subscription"
            case .inAppPurchase: "in-app purchase"
            }
        }

        /// The product's App Store Connect id.
        public var id: String {
            switch self {
            case .subscription(let id), .inAppPurchase(let id): id
            }
        }

        /// The product of a ``type`` and an id, or `nil` for a type that is neither.
        public init?(type: String, id: String) {
            switch type {
            case Self.subscriptionType: self = .subscription(id: id)
            case Self.inAppPurchaseType: self = .inAppPurchase(id: id)
            default: return nil
            }
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
        "\(product.noun) \(product.id) in \(territory)"
    }
}
