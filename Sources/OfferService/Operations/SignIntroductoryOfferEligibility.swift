import OfferSigning

extension ServiceOperation {
    /// `POST /v1/signatures/introductory-offer-eligibility`: introductory-offer eligibility as a compact JWS.
    static let signIntroductoryOfferEligibility = ServiceOperation(
        id: "signIntroductoryOfferEligibility", method: .post, path: "/v1/signatures/introductory-offer-eligibility",
        tag: "Signatures",
        summary: "Sign introductory-offer eligibility (compact JWS)",
        description: """
            Signs, as a compact JWS (`aud` = `introductory-offer-eligibility`), whether a customer may get a \
            subscription's introductory offer, overriding the App Store's own eligibility check, for StoreKit's \
            `Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)` (iOS 15+, back-deployed). \
            `transactionId` is any transaction ID of the customer. A `nonce`, when given, must be a version-4 UUID.
            """,
        scope: .introductoryOfferEligibility, requestSchema: IntroductoryOfferEligibilityBody.schema,
        responseSchema: CommonSchemas.signedJWS, problems: [.unknownApp, .forbidden]
    ) { request in
        let signer = try request.signer(for: request.string("bundleId"))
        let eligibility = IntroductoryOfferEligibilityRequest(
            productId: request.string("productId"), allowIntroductoryOffer: request.bool("allowIntroductoryOffer"),
            transactionId: request.string("transactionId"))
        let jws = try signer.sign(eligibility, nonce: try CommonSchemas.nonce(request))
        request.state.metrics.signed(OperationScope.introductoryOfferEligibility.rawValue)
        return OperationResponse(body: CommonSchemas.signedJWS(jws, keyID: signer.key.keyID))
    }
}

/// The body of `signIntroductoryOfferEligibility`.
enum IntroductoryOfferEligibilityBody {
    static let schema = JSONSchema.object(
        [
            .init("bundleId", CommonSchemas.bundleID),
            .init("productId", CommonSchemas.productID),
            .init(
                "allowIntroductoryOffer",
                .boolean(
                    description: "Whether the customer may get the subscription's introductory offer.",
                    example: true)),
            .init("transactionId", CommonSchemas.transactionID),
            .init("nonce", CommonSchemas.nonce, required: false),
        ], description: "An introductory-offer eligibility statement to sign."
    ).named("IntroductoryOfferEligibilityRequest").example(
        .object([
            ("bundleId", .string("com.example.offerkit.demo")), ("productId", .string("com.example.monthly")),
            ("allowIntroductoryOffer", .bool(true)), ("transactionId", .string("2000000123456789")),
        ]))
}
