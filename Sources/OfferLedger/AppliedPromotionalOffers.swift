/// The promotional offers `offerkit codes apply` created in App Store Connect, by the product
/// ID of their subscription: the offers a promotional offer's signature may name when a ledger is
/// given.
///
/// A signature for an offer identifier that App Store Connect does not have (or has for another
/// subscription) verifies everywhere, and fails only on the customer's device, where the App
/// Store does not apply the offer. Where the ledger knows a product's promotional offers,
/// ``check(productId:offerIdentifier:)`` refuses any other; for a product it knows none of, it
/// refuses nothing (offers made by hand in App Store Connect stay signable).
public struct AppliedPromotionalOffers: Sendable, Equatable {
    /// Each product's offer identifiers, sorted.
    public let offers: [String: [String]]

    public init(offers: [String: [String]] = [:]) {
        self.offers = offers
    }

    /// Whether the ledger knows promotional offers of the product.
    public func knows(productId: String) -> Bool { offers[productId] != nil }

    /// Checks that a signature may name the offer.
    ///
    /// - Throws: ``PromotionalOfferError/notCreated(offerIdentifier:productId:known:)`` when the
    ///   ledger knows promotional offers of `productId` and `offerIdentifier` is not one of them.
    public func check(productId: String, offerIdentifier: String) throws(PromotionalOfferError) {
        guard let known = offers[productId], !known.contains(offerIdentifier) else { return }
        throw .notCreated(offerIdentifier: offerIdentifier, productId: productId, known: known)
    }
}
