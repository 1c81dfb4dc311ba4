import OfferJSON

extension ShapeReader {
    static let campaignMembers = ["name", "app", "offers"]
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
            if let offers = array("offers", of: root, required: true, allowed: AllowedText.offers, elements: .object) {
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
            }
        }
        draft.findings = findings
        if findings.isEmpty, let name = draft.name, let bundleId = draft.bundleId, let appAppleId = draft.appAppleId,
            let offers = OfferDraft.all(draft.offers.map(\.offer.definition))
        {
            draft.campaign = Campaign(
                name: name, app: CampaignApp(bundleId: bundleId, appAppleId: appAppleId), offers: offers)
        }
        return draft
    }
}
