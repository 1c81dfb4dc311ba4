/// One entry of `promotionalOffers` as read (see ``OfferDraft``).
struct PromotionalOfferDraft {
    var referenceName: String?
    var offerIdentifier: String?
    var terms = SubscriptionOfferTermsDraft()

    init() {}

    init(_ offer: PromotionalOfferDefinition) {
        referenceName = offer.referenceName
        offerIdentifier = offer.offerIdentifier
        terms = SubscriptionOfferTermsDraft(offer.terms)
    }

    /// The offer, when every part of it could be read.
    var definition: PromotionalOfferDefinition? {
        guard let referenceName, let offerIdentifier, let terms = terms.terms else { return nil }
        return PromotionalOfferDefinition(referenceName: referenceName, offerIdentifier: offerIdentifier, terms: terms)
    }
}
