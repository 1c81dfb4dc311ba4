/// An introductory offer of a campaign (App Store Connect's `subscriptionIntroductoryOffers`): what
/// new subscribers get, one App Store Connect resource per territory of ``terms``' prices.
public struct IntroductoryOfferDefinition: Sendable, Equatable {
    /// The subscription, payment mode, duration and the territories with their prices.
    public var terms: SubscriptionOfferTerms
    /// The first day the offer is available; `nil` = at once.
    public var startDate: CalendarDate?
    /// The last day; `nil` = no end.
    public var endDate: CalendarDate?

    public init(terms: SubscriptionOfferTerms, startDate: CalendarDate? = nil, endDate: CalendarDate? = nil) {
        self.terms = terms
        self.startDate = startDate
        self.endDate = endDate
    }
}
