import Foundation

/// Why ``RequestPlanner`` could not turn a campaign into App Store Connect requests.
///
/// A campaign that ``CampaignValidator`` accepted never causes the first two; the third means
/// the caller supplied the wrong codes for a generated custom-code batch. Offers and batches are
/// numbered from 1, as on every surface (the first of an offer's `customCodes` is batch 1).
public enum RequestPlanningError: Error, Sendable, Equatable, LocalizedError {
    /// An auto-renewable subscription offer lacks a field App Store Connect requires.
    case missingField(offer: Int, referenceName: String, field: String)
    /// The payment mode does not exist for the product type.
    case paymentModeNotAllowed(offer: Int, referenceName: String, paymentMode: PaymentMode, productType: ProductType)
    /// The caller supplied a different number of codes than the generated batch holds.
    case generatedCodeCount(offer: Int, referenceName: String, batch: Int, expected: Int, supplied: Int)

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
        }
    }
}
