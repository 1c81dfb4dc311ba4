/// What every promotional, introductory and win-back offer says: the subscription, how the customer
/// pays, for how long, and the price per territory.
public struct SubscriptionOfferTerms: Sendable, Equatable {
    /// The subscription the offer discounts.
    public var subscription: SubscriptionReference
    /// `FREE_TRIAL`, `PAY_AS_YOU_GO` or `PAY_UP_FRONT` (App Store Connect's `offerMode`).
    public var paymentMode: PaymentMode
    /// The length of one period.
    public var duration: OfferDuration
    /// How many periods: 1 for `FREE_TRIAL` and `PAY_UP_FRONT` (App Store Connect's `numberOfPeriods`,
    /// a win-back offer's `periodCount`).
    public var numberOfPeriods: Int
    /// App Store Connect's optional `targetSubscriptionPlanType`.
    public var targetSubscriptionPlanType: SubscriptionPlanType?
    /// One entry per territory where the offer is available (free in every territory for `FREE_TRIAL`).
    public var prices: [TerritoryPrice]

    public init(
        subscription: SubscriptionReference, paymentMode: PaymentMode, duration: OfferDuration,
        numberOfPeriods: Int = 1, targetSubscriptionPlanType: SubscriptionPlanType? = nil, prices: [TerritoryPrice]
    ) {
        self.subscription = subscription
        self.paymentMode = paymentMode
        self.duration = duration
        self.numberOfPeriods = numberOfPeriods
        self.targetSubscriptionPlanType = targetSubscriptionPlanType
        self.prices = prices
    }
}
