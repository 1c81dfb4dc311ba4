import OfferJSON

extension ShapeReader {
    static let campaignMembers = ["name", "app", "offers", "promotionalOffers", "introductoryOffers", "winBackOffers"]
    static let appMembers = ["bundleId", "appAppleId"]

    /// Reads a whole campaign document: every part that has the right shape, down to each offer's
    /// fields, and the whole campaign when nothing has a shape problem.
    mutating func readCampaign(_ document: JSONValue) -> CampaignDraft {
        var draft = CampaignDraft()
        draft.document = document
        let allowed = "a JSON object with the members " + Self.campaignMembers.joined(separator: ", ")
        if let root = object(document, at: .root, noun: "the campaign", members: Self.campaignMembers, allowed: allowed)
        {
            draft.name = string("name", of: root, required: true, allowed: AllowedText.name)
            if let app = object(
                "app", of: root, required: true, noun: "the app", members: Self.appMembers, allowed: AllowedText.app)
            {
                draft.bundleId = string("bundleId", of: app, required: true, allowed: AllowedText.bundleId)
                draft.appAppleId = string("appAppleId", of: app, required: true, allowed: AllowedText.appAppleId)
            }
            // `offers` may be left out when the campaign lists offers of another kind.
            let offersRequired = !["promotionalOffers", "introductoryOffers", "winBackOffers"].contains(where: root.has)
            if let offers = array(
                "offers", of: root, required: offersRequired, allowed: AllowedText.offers, elements: .object)
            {
                draft.offerCount = offers.count
                for (index, value) in offers.enumerated() {
                    if stopsWhenCancelled, Task.isCancelled {
                        draft.wasCancelled = true
                        return draft
                    }
                    if let offer = readOffer(value, at: root.path["offers"][index]) {
                        draft.offers.append((index, offer))
                    }
                }
            } else if !offersRequired, !root.has("offers") {
                draft.offerCount = 0
            }
            readSubscriptionOffers(of: root, into: &draft)
            if draft.wasCancelled { return draft }
        }
        draft.findings = findings
        if findings.isEmpty, let name = draft.name, let bundleId = draft.bundleId, let appAppleId = draft.appAppleId,
            let offers = OfferDraft.all(draft.offers.map(\.offer.definition)),
            let promotional = OfferDraft.all(draft.promotionalOffers.map(\.offer.definition)),
            let introductory = OfferDraft.all(draft.introductoryOffers.map(\.offer.definition)),
            let winBack = OfferDraft.all(draft.winBackOffers.map(\.offer.definition))
        {
            draft.campaign = Campaign(
                name: name, app: CampaignApp(bundleId: bundleId, appAppleId: appAppleId), offers: offers,
                promotionalOffers: promotional, introductoryOffers: introductory, winBackOffers: winBack)
        }
        return draft
    }
}
