import OfferSigning

extension ServiceOperation {
    /// `POST /v1/signatures/promotional-offer`: a promotional offer as a V2 compact JWS.
    static let signPromotionalOffer = ServiceOperation(
        id: "signPromotionalOffer", method: .post, path: "/v1/signatures/promotional-offer", tag: "Signatures",
        summary: "Sign a promotional offer (V2 compact JWS)",
        description: """
            Signs a promotional offer as a compact JWS (`aud` = `promotional-offer`) for StoreKit's \
            `Product.PurchaseOption.promotionalOffer(_:compactJWS:)` (iOS 15+, back-deployed), SwiftUI's \
            `subscriptionPromotionalOffer` modifiers, and Retention Messaging's `promotionalOfferSignatureV2`. \
            `transactionId` (any transaction ID of the customer, or the appTransactionId) is optional but \
            recommended. A `nonce`, when given, must be a version-4 UUID.
            """,
        scope: .promotionalOffer, requestSchema: PromotionalOfferBody.schema, responseSchema: CommonSchemas.signedJWS,
        problems: [.unknownApp, .forbidden]
    ) { request in
        let signer = try request.signer(for: request.string("bundleId"))
        let offer = PromotionalOfferRequest(
            productId: request.string("productId"), offerIdentifier: request.string("offerIdentifier"),
            transactionId: request.optionalString("transactionId"))
        let jws = try signer.sign(offer, nonce: try CommonSchemas.nonce(request))
        request.state.metrics.signed(OperationScope.promotionalOffer.rawValue)
        return OperationResponse(body: CommonSchemas.signedJWS(jws, keyID: signer.key.keyID))
    }
}

/// The body of `signPromotionalOffer`.
enum PromotionalOfferBody {
    static let schema = JSONSchema.object(
        [
            .init("bundleId", CommonSchemas.bundleID),
            .init("productId", CommonSchemas.productID),
            .init("offerIdentifier", CommonSchemas.offerIdentifier),
            .init("transactionId", CommonSchemas.transactionID, required: false),
            .init("nonce", CommonSchemas.nonce, required: false),
        ], description: "A promotional offer to sign."
    ).named("PromotionalOfferRequest").example(
        .object([
            ("bundleId", .string("com.example.offerkit.demo")), ("productId", .string("com.example.monthly")),
            ("offerIdentifier", .string("WINBACK50")), ("transactionId", .string("2000000123456789")),
        ]))
}
