/// A marketing campaign: one app and the offer codes to create for it.
///
/// Read one from JSON with ``CampaignReader``, check it with ``CampaignValidator``, turn it into
/// App Store Connect requests with ``RequestPlanner``.
public struct Campaign: Sendable, Equatable {
    /// A name for the campaign, unique in the ledger (for example `spring-2027`).
    public var name: String
    /// The app whose products the offers discount.
    public var app: CampaignApp
    /// The offers, in the order they are created.
    public var offers: [OfferDefinition]

    public init(name: String, app: CampaignApp, offers: [OfferDefinition]) {
        self.name = name
        self.app = app
        self.offers = offers
    }
}
