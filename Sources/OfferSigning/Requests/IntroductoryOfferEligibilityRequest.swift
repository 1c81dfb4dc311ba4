import OfferJSON

/// Tells StoreKit whether a customer may get a subscription's introductory offer, signed as a
/// compact JWS (`aud` = `introductory-offer-eligibility`) for
/// `Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`.
public struct IntroductoryOfferEligibilityRequest: Codable, Hashable, Sendable {
    /// The subscription's product identifier.
    public var productId: String
    /// Whether the introductory offer applies.
    public var allowIntroductoryOffer: Bool
    /// A transaction ID of the customer (required).
    public var transactionId: String

    public init(productId: String, allowIntroductoryOffer: Bool, transactionId: String) {
        self.productId = productId
        self.allowIntroductoryOffer = allowIntroductoryOffer
        self.transactionId = transactionId
    }
}

extension IntroductoryOfferEligibilityRequest: JWSRequestClaims {
    static let kind = JWSKind.introductoryOfferEligibility

    func validate() throws(RequestValidationError) {
        try Check.identifier(productId, "productId")
        try Check.identifier(transactionId, "transactionId")
    }

    func writeClaims(into writer: inout JSONWriter) {
        writer.member("productId", productId)
        writer.member("allowIntroductoryOffer", allowIntroductoryOffer)
        writer.member("transactionId", transactionId)
    }
}
