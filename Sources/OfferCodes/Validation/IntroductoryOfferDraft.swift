/// One entry of `introductoryOffers` as read (see ``OfferDraft``).
struct IntroductoryOfferDraft {
    var terms = SubscriptionOfferTermsDraft()
    var startDate: DraftPart<CalendarDate> = .absent
    var endDate: DraftPart<CalendarDate> = .absent

    init() {}

    init(_ offer: IntroductoryOfferDefinition) {
        terms = SubscriptionOfferTermsDraft(offer.terms)
        startDate = DraftPart(offer.startDate, isThere: false)
        endDate = DraftPart(offer.endDate, isThere: false)
    }

    /// The offer, when every part of it could be read.
    var definition: IntroductoryOfferDefinition? {
        guard let terms = terms.terms, let startDate = startDate.modelValue, let endDate = endDate.modelValue else {
            return nil
        }
        return IntroductoryOfferDefinition(terms: terms, startDate: startDate, endDate: endDate)
    }
}
