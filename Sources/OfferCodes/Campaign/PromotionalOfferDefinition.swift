/// A promotional offer of a campaign (App Store Connect's `subscriptionPromotionalOffers`): a
/// discount for existing or former subscribers that the app applies with a signature naming the
/// offer's identifier (`offerkit sign promotional-offer`).
public struct PromotionalOfferDefinition: Sendable, Equatable {
    /// The offer's name in App Store Connect (`name`); internal, never shown to customers.
    public var referenceName: String
    /// The promotional offer identifier (App Store Connect's `offerCode`): what StoreKit and the
    /// signature call `offerIdentifier`.
    public var offerIdentifier: String
    /// The subscription, payment mode, duration and prices.
    public var terms: SubscriptionOfferTerms

    public init(referenceName: String, offerIdentifier: String, terms: SubscriptionOfferTerms) {
        self.referenceName = referenceName
        self.offerIdentifier = offerIdentifier
        self.terms = terms
    }
}
