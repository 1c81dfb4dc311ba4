import Foundation

/// Why ``RequestPlanner`` could not turn a campaign into App Store Connect requests.
///
/// A campaign that ``CampaignValidator`` accepted never causes the first two nor the last; the third
/// means the caller supplied the wrong codes for a generated custom-code batch, the fourth that the
/// campaign's customer prices were not looked up (``PriceResolution``). Offers and batches are
/// numbered from 1 (batch 2 is the second entry of the offer's `customCodes` list), as every
/// surface of OfferKit numbers them.
public enum RequestPlanningError: Error, Sendable, Equatable, LocalizedError {
    /// An auto-renewable subscription offer lacks a field App Store Connect requires.
    case missingField(offer: Int, referenceName: String, field: String)
    /// The payment mode does not exist for the product type.
    case paymentModeNotAllowed(offer: Int, referenceName: String, paymentMode: PaymentMode, productType: ProductType)
    /// The caller supplied a different number of codes than the generated batch holds.
    case generatedCodeCount(offer: Int, referenceName: String, batch: Int, expected: Int, supplied: Int)
    /// A price names a customer price whose price point was not looked up (``PriceResolution``).
    case pricePointNotLookedUp(
        offer: String, product: PricePointQuery.Product, territory: String, customerPrice: String)
    /// A promotional, introductory or win-back offer has a payment mode subscriptions do not have.
    case subscriptionPaymentMode(offer: String, paymentMode: PaymentMode)

    public var errorDescription: String? {
        switch self {
        case .missingField(let offer, let name, let field):
            return "offer \(offer) (\"\(name)\"): `\(field)` is required for an auto-renewable subscription offer; "
                + "validate the campaign before planning its requests"
        case .paymentModeNotAllowed(let offer, let name, let mode, let type):
            let allowed = type.allowedPaymentModes.map(\.rawValue).joined(separator: ", ")
            return "offer \(offer) (\"\(name)\"): `paymentMode` \(mode.rawValue) is not available for a "
                + "\(type.displayName); expected one of \(allowed)"
        case .generatedCodeCount(let offer, let name, let batch, let expected, let supplied):
            return
                "offer \(offer) (\"\(name)\"): custom-code batch \(batch) generates \(expected) codes, but \(supplied) "
                + "were supplied; record the batch's generated codes in the ledger before planning its requests"
        case .pricePointNotLookedUp(let offer, let product, let territory, let price):
            return
                "\(offer): the \(territory) price is the customer price \(price), whose price point was not looked up "
                + "in App Store Connect; write its price point id instead, as {\"territory\": \"\(territory)\", "
                + "\"pricePoint\": \"ID\"}: `offerkit codes lookup price-points \(product.lookupFlag) --territory "
                + "\(territory) --customer-price \(price)` prints it (with your App Store Connect API key's options, "
                + "as for `codes apply`)"
        case .subscriptionPaymentMode(let offer, let mode):
            return
                "\(offer): `paymentMode` \(mode.rawValue) is not available for a subscription offer; expected one of "
                + "FREE_TRIAL, PAY_AS_YOU_GO, PAY_UP_FRONT; validate the campaign before planning its requests"
        }
    }
}
