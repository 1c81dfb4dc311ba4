/// A marketing campaign: one app, the offer codes to create for it, and its subscriptions'
/// promotional, introductory and win-back offers.
///
/// Read one from JSON with ``CampaignReader``, check it with ``CampaignValidator``, turn it into
/// App Store Connect requests with ``RequestPlanner``.
public struct Campaign: Sendable, Equatable {
    /// A name for the campaign, unique in the ledger (for example `spring-2027`).
    public var name: String
    /// The app whose products the offers discount.
    public var app: CampaignApp
    /// The offer codes, in the order they are created.
    public var offers: [OfferDefinition]
    /// The promotional offers.
    public var promotionalOffers: [PromotionalOfferDefinition]
    /// The introductory offers.
    public var introductoryOffers: [IntroductoryOfferDefinition]
    /// The win-back offers.
    public var winBackOffers: [WinBackOfferDefinition]

    public init(
        name: String, app: CampaignApp, offers: [OfferDefinition],
        promotionalOffers: [PromotionalOfferDefinition] = [], introductoryOffers: [IntroductoryOfferDefinition] = [],
        winBackOffers: [WinBackOfferDefinition] = []
    ) {
        self.name = name
        self.app = app
        self.offers = offers
        self.promotionalOffers = promotionalOffers
        self.introductoryOffers = introductoryOffers
        self.winBackOffers = winBackOffers
    }

    /// Whether the campaign declares promotional, introductory or win-back offers.
    public var hasSubscriptionOffers: Bool {
        !promotionalOffers.isEmpty || !introductoryOffers.isEmpty || !winBackOffers.isEmpty
    }
}
