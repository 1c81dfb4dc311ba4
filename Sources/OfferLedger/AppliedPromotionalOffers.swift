/// The promotional offers `offerkit codes apply` created in App Store Connect, by app (its
/// campaign's bundle ID) and by the product ID of their subscription: the offers a promotional
/// offer's signature may name when a ledger is given.
///
/// A signature for an offer identifier that App Store Connect does not have (or has for another
/// subscription) verifies everywhere, and fails only on the customer's device, where the App
/// Store does not apply the offer. Where the ledger knows a product's promotional offers,
/// ``check(bundleId:productId:offerIdentifier:)`` refuses any other; for a product it knows none
/// of, it refuses nothing (offers made by hand in App Store Connect stay signable: declare one in
/// a campaign as it is, and `codes apply` records it when it finds it identical).
public struct AppliedPromotionalOffers: Sendable, Equatable {
    /// The offer identifiers, sorted, by bundle ID and then product ID.
    public let offers: [String: [String: [String]]]

    public init(offers: [String: [String: [String]]] = [:]) {
        self.offers = offers
    }

    /// Whether the ledger knows promotional offers of the app's product.
    public func knows(bundleId: String, productId: String) -> Bool { offers[bundleId]?[productId] != nil }

    /// Checks that a signature for the app may name the offer.
    ///
    /// - Throws: ``PromotionalOfferError/notCreated(offerIdentifier:productId:bundleId:known:)`` when
    ///   the ledger knows promotional offers of the app's `productId` and `offerIdentifier` is not
    ///   one of them.
    public func check(bundleId: String, productId: String, offerIdentifier: String) throws(PromotionalOfferError) {
        guard let known = offers[bundleId]?[productId], !known.contains(offerIdentifier) else { return }
        throw .notCreated(offerIdentifier: offerIdentifier, productId: productId, bundleId: bundleId, known: known)
    }
}
