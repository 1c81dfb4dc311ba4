/// A win-back offer of a campaign (App Store Connect's `winBackOffers`): a discount the App Store
/// shows to lapsed subscribers who meet its ``customerEligibility``.
public struct WinBackOfferDefinition: Sendable, Equatable {
    /// The offer's name in App Store Connect (`referenceName`).
    public var referenceName: String
    /// The offer identifier (App Store Connect's `offerId`): what StoreKit calls `offerIdentifier`.
    public var offerIdentifier: String
    /// The subscription, payment mode, duration (`periodCount` periods) and prices.
    public var terms: SubscriptionOfferTerms
    /// Who may redeem it.
    public var customerEligibility: WinBackEligibility
    /// The first day the offer is available.
    public var startDate: CalendarDate
    /// The last day; `nil` = no end.
    public var endDate: CalendarDate?
    /// How it ranks among the app's other offers and in-app events.
    public var priority: WinBackPriority
    /// Whether the App Store promotes it; `nil` leaves it to App Store Connect.
    public var promotionIntent: WinBackPromotionIntent?

    public init(
        referenceName: String, offerIdentifier: String, terms: SubscriptionOfferTerms,
        customerEligibility: WinBackEligibility, startDate: CalendarDate, endDate: CalendarDate? = nil,
        priority: WinBackPriority, promotionIntent: WinBackPromotionIntent? = nil
    ) {
        self.referenceName = referenceName
        self.offerIdentifier = offerIdentifier
        self.terms = terms
        self.customerEligibility = customerEligibility
        self.startDate = startDate
        self.endDate = endDate
        self.priority = priority
        self.promotionIntent = promotionIntent
    }
}
