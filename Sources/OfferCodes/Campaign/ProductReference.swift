/// The product an offer discounts.
public struct ProductReference: Sendable, Equatable {
    /// The product's App Store Connect resource id (of the `subscriptions` or `inAppPurchases` resource).
    public var id: String
    /// The product identifier the app uses, for example `com.example.offerkit.monthly`.
    public var productId: String
    /// The kind of product.
    public var type: ProductType

    public init(id: String, productId: String, type: ProductType) {
        self.id = id
        self.productId = productId
        self.type = type
    }
}
