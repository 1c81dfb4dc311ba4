/// One offer as the shape reader could read it: each part that had the right shape, with the
/// parts that did not left out (their problems are reported), so that the rules check everything
/// that can be checked.
///
/// A required member that is missing or unreadable is `nil`; an optional one is a ``DraftPart``;
/// a list is `nil` when the list itself could not be read, and holds `nil` for each element that
/// could not be.
struct OfferDraft {
    var referenceName: String?
    /// The `displayName` entries in document order, each title `nil` when it is not a string;
    /// empty when the offer has none, `nil` when `displayName` is not an object.
    var displayName: [(language: String, title: String?)]? = []
    /// `nil` when `product` is missing or not an object.
    var product: ProductDraft?
    var paymentMode: PaymentMode?
    var duration: DraftPart<OfferDuration> = .absent
    var numberOfPeriods: DraftPart<Int> = .absent
    var customerEligibilities: [CustomerEligibility?]?
    var offerEligibility: DraftPart<OfferEligibility> = .absent
    var autoRenewEnabled: DraftPart<Bool> = .absent
    var targetSubscriptionPlanType: DraftPart<SubscriptionPlanType> = .absent
    var prices: [PriceDraft?]?
    /// Empty when the offer has no `oneTimeUseCodes`.
    var oneTimeUseCodes: [OneTimeUseBatchDraft?]? = []
    /// Empty when the offer has no `customCodes`.
    var customCodes: [CustomCodeBatchDraft?]? = []

    init() {}

    /// The parts of an offer built in Swift: everything is readable.
    init(_ offer: OfferDefinition) {
        referenceName = offer.referenceName
        displayName = offer.displayName.titles.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        product = ProductDraft(offer.product)
        paymentMode = offer.paymentMode
        duration = DraftPart(offer.duration, isThere: false)
        numberOfPeriods = DraftPart(offer.numberOfPeriods, isThere: false)
        customerEligibilities = offer.customerEligibilities
        offerEligibility = DraftPart(offer.offerEligibility, isThere: false)
        autoRenewEnabled = DraftPart(offer.autoRenewEnabled, isThere: false)
        targetSubscriptionPlanType = DraftPart(offer.targetSubscriptionPlanType, isThere: false)
        prices = offer.prices.map(PriceDraft.init)
        oneTimeUseCodes = offer.oneTimeUseCodes.map(OneTimeUseBatchDraft.init)
        customCodes = offer.customCodes.map(CustomCodeBatchDraft.init)
    }

    /// The product type, when it could be read.
    var productType: ProductType? { product?.type }

    /// The offer, when every part of it could be read.
    var definition: OfferDefinition? {
        guard let referenceName, let displayName = displayNameModel, let product = product?.reference, let paymentMode,
            let duration = duration.modelValue, let numberOfPeriods = numberOfPeriods.modelValue,
            let eligibilities = Self.all(customerEligibilities), let offerEligibility = offerEligibility.modelValue,
            let autoRenewEnabled = autoRenewEnabled.modelValue,
            let planType = targetSubscriptionPlanType.modelValue,
            let prices = Self.all(prices)?.map(\.territoryPrice), let prices = Self.all(prices),
            let oneTimeUse = Self.all(oneTimeUseCodes)?.map(\.batch), let oneTimeUse = Self.all(oneTimeUse),
            let custom = Self.all(customCodes)?.map(\.batch), let custom = Self.all(custom)
        else { return nil }
        return OfferDefinition(
            referenceName: referenceName, displayName: displayName, product: product, paymentMode: paymentMode,
            duration: duration,
            numberOfPeriods: numberOfPeriods, customerEligibilities: eligibilities, offerEligibility: offerEligibility,
            autoRenewEnabled: autoRenewEnabled, targetSubscriptionPlanType: planType, prices: prices,
            oneTimeUseCodes: oneTimeUse, customCodes: custom)
    }

    /// The display name, when it and each of its titles could be read (a repeated language keeps
    /// its first title; the rules report the repeat).
    private var displayNameModel: OfferDisplayName? {
        guard let displayName else { return nil }
        var titles: [String: String] = [:]
        for entry in displayName {
            guard let title = entry.title else { return nil }
            if titles[entry.language] == nil { titles[entry.language] = title }
        }
        return OfferDisplayName(titles)
    }

    /// The elements, when the list and each of them could be read.
    static func all<Element>(_ list: [Element?]?) -> [Element]? {
        guard let list, !list.contains(where: { $0 == nil }) else { return nil }
        return list.compactMap { $0 }
    }
}
