import Foundation
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
        scope: .promotionalOffer, body: PromotionalOfferBody.self, responseSchema: CommonSchemas.signedJWS,
        problems: [.unknownApp, .forbidden]
    ) { body, request in
        let signer = try request.signer(for: body.bundleID)
        let jws = try signer.sign(body.offer, nonce: body.nonce)
        request.state.metrics.signed(SigningOperation.promotionalOffer)
        return OperationResponse(body: CommonSchemas.signedJWS(jws, keyID: signer.key.keyID))
    }
}

/// The body of `signPromotionalOffer`.
struct PromotionalOfferBody: OperationBody {
    let bundleID: String
    let offer: PromotionalOfferRequest
    let nonce: UUID?

    init(validated body: ValidatedBody) throws(ServiceProblem) {
        bundleID = try body(Members.bundleID)
        offer = PromotionalOfferRequest(
            productId: try body(Members.productID), offerIdentifier: try body(Members.offerIdentifier),
            transactionId: try body(Members.transactionID))
        nonce = try CommonSchemas.nonce(body(Members.nonce))
    }

    enum Members {
        static let bundleID = CommonSchemas.bundleIDMember
        static let productID = CommonSchemas.productIDMember
        static let offerIdentifier = CommonSchemas.offerIdentifierMember
        static let transactionID: BodyMember<String?> = .optional(
            "transactionId", CommonSchemas.transactionID, .string)
        static let nonce = CommonSchemas.nonceMember
    }

    static let schema = JSONSchema.object(
        [
            Members.bundleID.property, Members.productID.property, Members.offerIdentifier.property,
            Members.transactionID.property, Members.nonce.property,
        ], description: "A promotional offer to sign."
    ).named("PromotionalOfferRequest").example(
        .object([
            ("bundleId", .string("com.example.offerkit.demo")), ("productId", .string("com.example.monthly")),
            ("offerIdentifier", .string("WINBACK50")), ("transactionId", .string("2000000123456789")),
        ]))
}
