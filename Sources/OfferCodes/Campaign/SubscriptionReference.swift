/// The auto-renewable subscription a promotional, introductory or win-back offer belongs to.
public struct SubscriptionReference: Sendable, Equatable {
    /// The subscription's App Store Connect resource id (of the `subscriptions` resource).
    public var id: String
    /// The product identifier the app uses, for example `com.example.offerkit.monthly`: what a
    /// promotional offer's signature names.
    public var productId: String
    /// How often the subscription renews, when the campaign says: a pay-as-you-go offer's
    /// duration must be it. `offerkit codes lookup subscriptions` prints it.
    public var period: SubscriptionPeriod?

    public init(id: String, productId: String, period: SubscriptionPeriod? = nil) {
        self.id = id
        self.productId = productId
        self.period = period
    }
}
