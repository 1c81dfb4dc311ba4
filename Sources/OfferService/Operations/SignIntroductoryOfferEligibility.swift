import Foundation
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
        scope: .introductoryOfferEligibility, body: IntroductoryOfferEligibilityBody.self,
        responseSchema: CommonSchemas.signedJWS, problems: [.unknownApp, .forbidden]
    ) { body, request in
        let signer = try request.signer(for: body.bundleID)
        let jws = try signer.sign(body.eligibility, nonce: body.nonce)
        request.state.metrics.signed(SigningOperation.introductoryOfferEligibility)
        return OperationResponse(body: CommonSchemas.signedJWS(jws, keyID: signer.key.keyID))
    }
}

/// The body of `signIntroductoryOfferEligibility`.
struct IntroductoryOfferEligibilityBody: OperationBody {
    let bundleID: String
    let eligibility: IntroductoryOfferEligibilityRequest
    let nonce: UUID?

    init(validated body: ValidatedBody) throws(ServiceProblem) {
        bundleID = try body(Members.bundleID)
        eligibility = IntroductoryOfferEligibilityRequest(
            productId: try body(Members.productID), allowIntroductoryOffer: try body(Members.allowIntroductoryOffer),
            transactionId: try body(Members.transactionID))
        nonce = try CommonSchemas.nonce(body(Members.nonce))
    }

    enum Members {
        static let bundleID = CommonSchemas.bundleIDMember
        static let productID = CommonSchemas.productIDMember
        static let allowIntroductoryOffer: BodyMember<Bool> = .required(
            "allowIntroductoryOffer",
            .boolean(
                description: "Whether the customer may get the subscription's introductory offer.", example: true),
            .bool)
        static let transactionID: BodyMember<String> = .required("transactionId", CommonSchemas.transactionID, .string)
        static let nonce = CommonSchemas.nonceMember
    }

    static let schema = JSONSchema.object(
        [
            Members.bundleID.property, Members.productID.property, Members.allowIntroductoryOffer.property,
            Members.transactionID.property, Members.nonce.property,
        ], description: "An introductory-offer eligibility statement to sign."
    ).named("IntroductoryOfferEligibilityRequest").example(
        .object([
            ("bundleId", .string("com.example.offerkit.demo")), ("productId", .string("com.example.monthly")),
            ("allowIntroductoryOffer", .bool(true)), ("transactionId", .string("2000000123456789")),
        ]))
}
