import Foundation

/// Why a promotional offer may not be signed (``AppliedPromotionalOffers``).
public enum PromotionalOfferError: Error, LocalizedError, Sendable, Equatable {
    /// The ledger knows the product's promotional offers, and this identifier is not one of them.
    case notCreated(offerIdentifier: String, productId: String, known: [String])

    /// The most identifiers a message lists.
    static let listed = 20

    public var errorDescription: String? {
        switch self {
        case .notCreated(let offerIdentifier, let productId, let known):
            let shown = known.prefix(Self.listed).joined(separator: ", ") + (known.count > Self.listed ? ", …" : "")
            return "offerIdentifier \"\(offerIdentifier)\" is not a promotional offer of product \(productId) in "
                + "App Store Connect, as the ledger records them (created by `offerkit codes apply`): \(shown). A "
                + "signature for another offer verifies but the App Store does not apply it; name one of these, or "
                + "add the offer to the campaign and apply it"
        }
    }
}
