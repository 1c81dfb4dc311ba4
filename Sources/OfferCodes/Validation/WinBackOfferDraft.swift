/// One entry of `winBackOffers` as read (see ``OfferDraft``).
struct WinBackOfferDraft {
    var referenceName: String?
    var offerIdentifier: String?
    var terms = SubscriptionOfferTermsDraft()
    /// `nil` when `customerEligibility` is missing or not an object.
    var eligibility: WinBackEligibilityDraft?
    var startDate: CalendarDate?
    var endDate: DraftPart<CalendarDate> = .absent
    var priority: WinBackPriority?
    var promotionIntent: DraftPart<WinBackPromotionIntent> = .absent

    init() {}

    init(_ offer: WinBackOfferDefinition) {
        referenceName = offer.referenceName
        offerIdentifier = offer.offerIdentifier
        terms = SubscriptionOfferTermsDraft(offer.terms)
        eligibility = WinBackEligibilityDraft(offer.customerEligibility)
        startDate = offer.startDate
        endDate = DraftPart(offer.endDate, isThere: false)
        priority = offer.priority
        promotionIntent = DraftPart(offer.promotionIntent, isThere: false)
    }

    /// The offer, when every part of it could be read.
    var definition: WinBackOfferDefinition? {
        guard let referenceName, let offerIdentifier, let terms = terms.terms,
            let eligibility = eligibility?.eligibility, let startDate, let endDate = endDate.modelValue, let priority,
            let promotionIntent = promotionIntent.modelValue
        else { return nil }
        return WinBackOfferDefinition(
            referenceName: referenceName, offerIdentifier: offerIdentifier, terms: terms,
            customerEligibility: eligibility, startDate: startDate, endDate: endDate, priority: priority,
            promotionIntent: promotionIntent)
    }
}

/// A win-back offer's `customerEligibility` as read.
struct WinBackEligibilityDraft {
    var paidSubscriptionDurationInMonths: Int?
    /// `nil` when `timeSinceLastSubscribedInMonths` is missing or not an object.
    var timeSinceLastSubscribed: (minimum: Int?, maximum: Int?)?
    var waitBetweenOffersInMonths: DraftPart<Int> = .absent

    init() {}

    init(_ eligibility: WinBackEligibility) {
        paidSubscriptionDurationInMonths = eligibility.paidSubscriptionDurationInMonths
        timeSinceLastSubscribed = (
            eligibility.timeSinceLastSubscribedInMonths.lowerBound,
            eligibility.timeSinceLastSubscribedInMonths.upperBound
        )
        waitBetweenOffersInMonths = DraftPart(eligibility.waitBetweenOffersInMonths, isThere: false)
    }

    /// The eligibility, when every part could be read and the range is one (minimum ≤ maximum).
    var eligibility: WinBackEligibility? {
        guard let paidSubscriptionDurationInMonths, let minimum = timeSinceLastSubscribed?.minimum,
            let maximum = timeSinceLastSubscribed?.maximum, minimum <= maximum,
            let wait = waitBetweenOffersInMonths.modelValue
        else { return nil }
        return WinBackEligibility(
            paidSubscriptionDurationInMonths: paidSubscriptionDurationInMonths,
            timeSinceLastSubscribedInMonths: minimum...maximum, waitBetweenOffersInMonths: wait)
    }
}
