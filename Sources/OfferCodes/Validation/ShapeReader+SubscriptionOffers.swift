import OfferJSON

extension ShapeReader {
    static let subscriptionMembers = ["id", "productId", "period"]
    static let termsMembers = [
        "subscription", "paymentMode", "duration", "numberOfPeriods", "targetSubscriptionPlanType", "prices",
    ]
    static let promotionalOfferMembers = ["referenceName", "offerIdentifier"] + termsMembers
    static let introductoryOfferMembers = termsMembers + ["startDate", "endDate"]
    static let winBackOfferMembers =
        ["referenceName", "offerIdentifier"] + termsMembers + [
            "customerEligibility", "startDate", "endDate", "priority", "promotionIntent",
        ]
    static let eligibilityMembers = [
        "paidSubscriptionDurationInMonths", "timeSinceLastSubscribedInMonths", "waitBetweenOffersInMonths",
    ]
    static let rangeMembers = ["minimum", "maximum"]

    /// Reads one of the lists of promotional, introductory or win-back offers (absent: none).
    mutating func readSubscriptionOffers(of root: ShapeObject, into draft: inout CampaignDraft) {
        for kind in [CampaignOfferKind.promotionalOffer, .introductoryOffer, .winBackOffer] {
            let member = kind.campaignMember
            guard root.has(member),
                let values = array(
                    member, of: root, required: false, allowed: AllowedText.subscriptionOffers, elements: .object)
            else { continue }
            draft.listed[kind] = values.count
            for (index, value) in values.enumerated() {
                if stopsWhenCancelled, Task.isCancelled {
                    draft.wasCancelled = true
                    return
                }
                let path = root.path[member][index]
                switch kind {
                case .promotionalOffer:
                    if let offer = readPromotionalOffer(value, at: path) {
                        draft.promotionalOffers.append((index, offer))
                    }
                case .introductoryOffer:
                    if let offer = readIntroductoryOffer(value, at: path) {
                        draft.introductoryOffers.append((index, offer))
                    }
                case .winBackOffer:
                    if let offer = readWinBackOffer(value, at: path) { draft.winBackOffers.append((index, offer)) }
                case .offerCode:
                    break
                }
            }
        }
    }

    private mutating func readPromotionalOffer(_ value: JSONValue, at path: ProblemPath) -> PromotionalOfferDraft? {
        guard
            let offer = object(
                value, at: path, noun: "the promotional offer", members: Self.promotionalOfferMembers,
                allowed: "an object describing one promotional offer")
        else { return nil }
        var draft = PromotionalOfferDraft()
        draft.referenceName = string(
            "referenceName", of: offer, required: true, allowed: AllowedText.promotionalReferenceName)
        draft.offerIdentifier = string(
            "offerIdentifier", of: offer, required: true, allowed: AllowedText.offerIdentifier)
        draft.terms = readTerms(of: offer)
        return draft
    }

    private mutating func readIntroductoryOffer(_ value: JSONValue, at path: ProblemPath) -> IntroductoryOfferDraft? {
        guard
            let offer = object(
                value, at: path, noun: "the introductory offer", members: Self.introductoryOfferMembers,
                allowed: "an object describing one introductory offer")
        else { return nil }
        var draft = IntroductoryOfferDraft()
        draft.terms = readTerms(of: offer)
        draft.startDate = part("startDate", of: offer, date("startDate", of: offer, required: false))
        draft.endDate = part("endDate", of: offer, date("endDate", of: offer, required: false))
        return draft
    }

    private mutating func readWinBackOffer(_ value: JSONValue, at path: ProblemPath) -> WinBackOfferDraft? {
        guard
            let offer = object(
                value, at: path, noun: "the win-back offer", members: Self.winBackOfferMembers,
                allowed: "an object describing one win-back offer")
        else { return nil }
        var draft = WinBackOfferDraft()
        draft.referenceName = string(
            "referenceName", of: offer, required: true, allowed: AllowedText.winBackReferenceName)
        draft.offerIdentifier = string(
            "offerIdentifier", of: offer, required: true, allowed: AllowedText.offerIdentifier)
        draft.terms = readTerms(of: offer)
        draft.eligibility = readEligibility(of: offer)
        draft.startDate = date("startDate", of: offer, required: true)
        draft.endDate = part("endDate", of: offer, date("endDate", of: offer, required: false))
        draft.priority = enumeration("priority", of: offer, required: true, naming: "a priority")
        draft.promotionIntent = part(
            "promotionIntent", of: offer,
            enumeration("promotionIntent", of: offer, required: false, naming: "a promotion intent"))
        return draft
    }

    private mutating func readTerms(of offer: ShapeObject) -> SubscriptionOfferTermsDraft {
        var terms = SubscriptionOfferTermsDraft()
        if let subscription = object(
            "subscription", of: offer, required: true, noun: "the subscription", members: Self.subscriptionMembers,
            allowed: AllowedText.subscription)
        {
            let id = string("id", of: subscription, required: true, allowed: AllowedText.subscriptionId)
            let productId = string("productId", of: subscription, required: true, allowed: AllowedText.productId)
            let period: SubscriptionPeriod? = enumeration(
                "period", of: subscription, required: false, naming: "a subscription period")
            terms.subscription = SubscriptionDraft(
                id: id, productId: productId, period: part("period", of: subscription, period))
        }
        terms.paymentMode = enumeration("paymentMode", of: offer, required: true, naming: "a payment mode")
        terms.duration = enumeration("duration", of: offer, required: true, naming: "an offer duration")
        terms.numberOfPeriods = part(
            "numberOfPeriods", of: offer,
            integer("numberOfPeriods", of: offer, required: false, allowed: AllowedText.numberOfPeriods))
        terms.targetSubscriptionPlanType = part(
            "targetSubscriptionPlanType", of: offer,
            enumeration(
                "targetSubscriptionPlanType", of: offer, required: false, naming: "a subscription plan type"))
        terms.prices = readPrices(of: offer)
        return terms
    }

    private mutating func readEligibility(of offer: ShapeObject) -> WinBackEligibilityDraft? {
        guard
            let eligibility = object(
                "customerEligibility", of: offer, required: true, noun: "the customer eligibility",
                members: Self.eligibilityMembers, allowed: AllowedText.customerEligibility)
        else { return nil }
        var draft = WinBackEligibilityDraft()
        draft.paidSubscriptionDurationInMonths = integer(
            "paidSubscriptionDurationInMonths", of: eligibility, required: true,
            allowed: AllowedText.paidSubscriptionDuration)
        if let range = object(
            "timeSinceLastSubscribedInMonths", of: eligibility, required: true, noun: "the range",
            members: Self.rangeMembers, allowed: AllowedText.timeSinceLastSubscribed)
        {
            let minimum = integer("minimum", of: range, required: true, allowed: AllowedText.monthsSinceLastSubscribed)
            let maximum = integer("maximum", of: range, required: true, allowed: AllowedText.monthsSinceLastSubscribed)
            if let minimum, let maximum, minimum > maximum {
                report(
                    range.path, rule: "win-back-time-since-last-subscribed",
                    "the range's minimum (\(minimum)) is above its maximum (\(maximum)); swap them",
                    allowed: AllowedText.timeSinceLastSubscribed)
            }
            draft.timeSinceLastSubscribed = (minimum, maximum)
        }
        draft.waitBetweenOffersInMonths = part(
            "waitBetweenOffersInMonths", of: eligibility,
            integer(
                "waitBetweenOffersInMonths", of: eligibility, required: false, allowed: AllowedText.waitBetweenOffers))
        return draft
    }
}
