/// The members every promotional, introductory and win-back offer has, as read (see ``OfferDraft``).
struct SubscriptionOfferTermsDraft {
    /// `nil` when `subscription` is missing or not an object.
    var subscription: SubscriptionDraft?
    var paymentMode: PaymentMode?
    var duration: OfferDuration?
    var numberOfPeriods: DraftPart<Int> = .absent
    var targetSubscriptionPlanType: DraftPart<SubscriptionPlanType> = .absent
    var prices: [PriceDraft?]?

    init() {}

    init(_ terms: SubscriptionOfferTerms) {
        subscription = SubscriptionDraft(terms.subscription)
        paymentMode = terms.paymentMode
        duration = terms.duration
        numberOfPeriods = .present(terms.numberOfPeriods)
        targetSubscriptionPlanType = DraftPart(terms.targetSubscriptionPlanType, isThere: false)
        prices = terms.prices.map(PriceDraft.init)
    }

    /// The terms, when every part could be read (`numberOfPeriods` left out is 1).
    var terms: SubscriptionOfferTerms? {
        guard let subscription = subscription?.reference, let paymentMode, let duration,
            let periods = numberOfPeriods.modelValue, let planType = targetSubscriptionPlanType.modelValue,
            let prices = OfferDraft.all(prices)?.map(\.territoryPrice), let prices = OfferDraft.all(prices)
        else { return nil }
        return SubscriptionOfferTerms(
            subscription: subscription, paymentMode: paymentMode, duration: duration, numberOfPeriods: periods ?? 1,
            targetSubscriptionPlanType: planType, prices: prices)
    }
}
