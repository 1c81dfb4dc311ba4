import OfferJSON

/// A promotional offer for an auto-renewable subscription, signed as a compact JWS
/// (`aud` = `promotional-offer`) for StoreKit's
/// `Product.PurchaseOption.promotionalOffer(_:compactJWS:)` and Retention Messaging's
/// `promotionalOfferSignatureV2`.
public struct PromotionalOfferRequest: Codable, Hashable, Sendable {
    /// The subscription's product identifier.
    public var productId: String
    /// The promotional offer's identifier, as set up in App Store Connect.
    public var offerIdentifier: String
    /// Optional but recommended: any transaction ID of the customer, or the appTransactionId.
    public var transactionId: String?

    public init(productId: String, offerIdentifier: String, transactionId: String? = nil) {
        self.productId = productId
        self.offerIdentifier = offerIdentifier
        self.transactionId = transactionId
    }
}

extension PromotionalOfferRequest: JWSRequestClaims {
    static let kind = JWSKind.promotionalOffer

    func validate() throws(RequestValidationError) {
        try Check.identifier(productId, "productId")
        try Check.identifier(offerIdentifier, "offerIdentifier")
        try Check.optionalIdentifier(transactionId, "transactionId")
    }

    func writeClaims(into writer: inout JSONWriter) {
        writer.member("productId", productId)
        writer.member("offerIdentifier", offerIdentifier)
        writer.member("transactionId", transactionId)
    }
}
