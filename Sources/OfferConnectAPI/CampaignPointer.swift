import OfferCodes

/// Maps a JSON pointer into a request body OfferKit planned (Apple's `source.pointer`) back to
/// the place in the campaign file it came from, so that an error names what the user wrote.
package enum CampaignPointer {
    /// The campaign path for `pointer` in the body of the request that creates `subject`:
    /// `$.offers[1].prices[0].pricePoint`, or at least the offer or batch.
    package static func campaignPath(_ pointer: String?, subject: PlannedRequest.Subject) -> String {
        let parts = (pointer ?? "").split(separator: "/").map(String.init)
        if subject.offerKind != .offerCode { return subscriptionOfferPath(parts, subject: subject) }
        let offer = "$.offers[\(subject.offerIndex)]"
        switch subject.kind {
        case .offer:
            if parts.count >= 2, parts[0] == "included", let index = Int(parts[1]) {
                let field =
                    parts.contains { $0.lowercased().contains("pricepoint") }
                    ? ".pricePoint"
                    : (parts.contains("territory") ? ".territory" : "")
                return "\(offer).prices[\(index)]\(field)"
            }
            if parts.count >= 3, parts[0] == "data", parts[1] == "attributes" {
                return offer + "." + offerField(parts[2])
            }
            if parts.count >= 3, parts[0] == "data", parts[1] == "relationships" {
                switch parts[2] {
                case "prices": return "\(offer).prices"
                case "subscription", "inAppPurchase": return "\(offer).product.id"
                default: return offer
                }
            }
            return offer
        case .oneTimeUse:
            let batch = "\(offer).oneTimeUseCodes[\(subject.batchIndex)]"
            if parts.count >= 3, parts[0] == "data", parts[1] == "attributes" {
                return batch + (parts[2] == "numberOfCodes" ? ".count" : "." + parts[2])
            }
            return batch
        case .customCode:
            let batch = "\(offer).customCodes[\(subject.batchIndex)]"
            if parts.count >= 3, parts[0] == "data", parts[1] == "attributes" {
                switch parts[2] {
                case "numberOfCodes": return batch + ".redemptionLimit"
                case "expirationDate": return batch + ".expirationDate"
                default: return batch
                }
            }
            return batch
        }
    }

    /// The path of a promotional, introductory or win-back offer's field: its prices (`included`
    /// entries, or an introductory offer's territory and price point, which stand for its
    /// `prices` entry), its subscription, or the attribute's campaign name.
    private static func subscriptionOfferPath(_ parts: [String], subject: PlannedRequest.Subject) -> String {
        let offer = "$.\(subject.offerKind.campaignMember)[\(subject.offerIndex)]"
        if parts.count >= 2, parts[0] == "included", let index = Int(parts[1]) {
            let field =
                parts.contains { $0.lowercased().contains("pricepoint") }
                ? ".pricePoint" : (parts.contains("territory") ? ".territory" : "")
            return "\(offer).prices[\(index)]\(field)"
        }
        if parts.count >= 5, parts[0] == "data", parts[1] == "relationships", parts[2] == "prices",
            parts[3] == "data", let index = Int(parts[4])
        {
            return "\(offer).prices[\(index)]"
        }
        if parts.count >= 3, parts[0] == "data", parts[1] == "relationships" {
            switch parts[2] {
            case "subscription": return "\(offer).subscription.id"
            case "territory": return "\(offer).prices[\(subject.batchIndex)].territory"
            case "subscriptionPricePoint": return "\(offer).prices[\(subject.batchIndex)].pricePoint"
            case "prices": return "\(offer).prices"
            default: return offer
            }
        }
        if parts.count >= 3, parts[0] == "data", parts[1] == "attributes" {
            let field: String
            switch parts[2] {
            case "name": field = "referenceName"
            case "offerCode", "offerId": field = "offerIdentifier"
            case "offerMode": field = "paymentMode"
            case "periodCount": field = "numberOfPeriods"
            case "customerEligibilityPaidSubscriptionDurationInMonths":
                field = "customerEligibility.paidSubscriptionDurationInMonths"
            case "customerEligibilityTimeSinceLastSubscribedInMonths":
                field = "customerEligibility.timeSinceLastSubscribedInMonths"
            case "customerEligibilityWaitBetweenOffersInMonths":
                field = "customerEligibility.waitBetweenOffersInMonths"
            default: field = parts[2]
            }
            // A member of an object attribute: `…InMonths/minimum`.
            return offer + "." + ([field] + parts.dropFirst(3)).joined(separator: ".")
        }
        return offer
    }

    /// The campaign's name for an offer attribute of App Store Connect.
    private static func offerField(_ attribute: String) -> String {
        switch attribute {
        case "name": "referenceName"
        case "offerMode": "paymentMode"
        default: attribute
        }
    }
}
