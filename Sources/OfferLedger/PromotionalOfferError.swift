import Foundation

/// Why a promotional offer may not be signed (``AppliedPromotionalOffers``).
public enum PromotionalOfferError: Error, LocalizedError, Sendable, Equatable {
    /// The ledger knows the app's promotional offers of the product, and this identifier is not
    /// one of them.
    case notCreated(offerIdentifier: String, productId: String, bundleId: String, known: [String])

    /// The most identifiers a message lists.
    static let listed = 20

    public var errorDescription: String? { message(naming: "offerIdentifier") }

    /// The message, naming the offer identifier as the caller gave it: `offerIdentifier` (a JSON
    /// field) or `--offer-identifier` (a flag).
    public func message(naming field: String) -> String {
        switch self {
        case .notCreated(let offerIdentifier, let productId, let bundleId, let known):
            let shown = known.prefix(Self.listed).joined(separator: ", ") + (known.count > Self.listed ? ", …" : "")
            return "\(field) \"\(offerIdentifier)\" is not one of the promotional offers of product "
                + "\"\(productId)\" (app \(bundleId)) that `offerkit codes apply` created, as the ledger records "
                + "them: \(shown). A signature for an offer App Store Connect does not have verifies but the App "
                + "Store does not apply it: name one of these, or declare the offer in a campaign and apply it "
                + "(an offer already in App Store Connect is recorded when the campaign declares it as it is)"
        }
    }
}
