/// A promotional, introductory or win-back offer's `subscription` as read (see ``OfferDraft``).
struct SubscriptionDraft {
    var id: String?
    var productId: String?
    var period: DraftPart<SubscriptionPeriod> = .absent

    init(id: String?, productId: String?, period: DraftPart<SubscriptionPeriod>) {
        self.id = id
        self.productId = productId
        self.period = period
    }

    init(_ subscription: SubscriptionReference) {
        self.init(
            id: subscription.id, productId: subscription.productId,
            period: DraftPart(subscription.period, isThere: false))
    }

    /// The subscription, when every part of it could be read.
    var reference: SubscriptionReference? {
        guard let id, let productId, let period = period.modelValue else { return nil }
        return SubscriptionReference(id: id, productId: productId, period: period)
    }
}
