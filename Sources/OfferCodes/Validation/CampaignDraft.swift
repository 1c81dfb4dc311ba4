import OfferJSON

/// What could be read of a campaign: the parts the rules check (each offer as far as it could be
/// read), the shape problems, and the whole campaign when nothing was wrong with its shape.
struct CampaignDraft {
    /// The parsed document, for putting problems in document order (`nil` for a campaign built in Swift).
    var document: JSONValue?
    var name: String?
    var bundleId: String?
    var appAppleId: String?
    /// The offers that are objects, as far as they could be read, with their index in the file's
    /// `offers` array.
    var offers: [(index: Int, offer: OfferDraft)] = []
    /// How many offers the file lists, read or not (`nil` when `offers` itself could not be read).
    var offerCount: Int?
    /// The promotional, introductory and win-back offers that are objects, as far as they could be
    /// read, with their index in their list.
    var promotionalOffers: [(index: Int, offer: PromotionalOfferDraft)] = []
    var introductoryOffers: [(index: Int, offer: IntroductoryOfferDraft)] = []
    var winBackOffers: [(index: Int, offer: WinBackOfferDraft)] = []
    /// How many entries each of those lists has, read or not (absent when the list is absent or unreadable).
    var listed: [CampaignOfferKind: Int] = [:]
    /// The shape problems.
    var findings: [CampaignFinding] = []
    /// The campaign, when the file had no shape problem.
    var campaign: Campaign?
    /// Whether reading stopped early because the task was cancelled (then the draft is partial).
    var wasCancelled = false

    init() {}

    /// How many offers of every kind the campaign lists (as far as the lists could be read).
    var totalOfferCount: Int { (offerCount ?? offers.count) + listed.values.reduce(0, +) }

    /// The parts of a campaign built in Swift: everything is readable.
    init(campaign: Campaign) {
        name = campaign.name
        bundleId = campaign.app.bundleId
        appAppleId = campaign.app.appAppleId
        offers = campaign.offers.enumerated().map { (index: $0.offset, offer: OfferDraft($0.element)) }
        offerCount = campaign.offers.count
        promotionalOffers = campaign.promotionalOffers.enumerated().map {
            (index: $0.offset, offer: PromotionalOfferDraft($0.element))
        }
        introductoryOffers = campaign.introductoryOffers.enumerated().map {
            (index: $0.offset, offer: IntroductoryOfferDraft($0.element))
        }
        winBackOffers = campaign.winBackOffers.enumerated().map {
            (index: $0.offset, offer: WinBackOfferDraft($0.element))
        }
        listed = [
            .promotionalOffer: campaign.promotionalOffers.count, .introductoryOffer: campaign.introductoryOffers.count,
            .winBackOffer: campaign.winBackOffers.count,
        ]
        self.campaign = campaign
    }
}
