/// The kinds of offer a campaign declares, each in its own list of the campaign file.
public enum CampaignOfferKind: String, Sendable, CaseIterable, Codable {
    /// `offers`: offer codes (``OfferDefinition``).
    case offerCode
    /// `promotionalOffers` (``PromotionalOfferDefinition``).
    case promotionalOffer
    /// `introductoryOffers` (``IntroductoryOfferDefinition``).
    case introductoryOffer
    /// `winBackOffers` (``WinBackOfferDefinition``).
    case winBackOffer

    /// The campaign file's member that lists offers of this kind.
    public var campaignMember: String {
        switch self {
        case .offerCode: "offers"
        case .promotionalOffer: "promotionalOffers"
        case .introductoryOffer: "introductoryOffers"
        case .winBackOffer: "winBackOffers"
        }
    }

    /// Words for messages: "offer code", "promotional offer", …
    public var displayName: String {
        switch self {
        case .offerCode: "offer code"
        case .promotionalOffer: "promotional offer"
        case .introductoryOffer: "introductory offer"
        case .winBackOffer: "win-back offer"
        }
    }
}
