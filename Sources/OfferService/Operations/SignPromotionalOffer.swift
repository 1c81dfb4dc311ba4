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
        let signer = try request.signer(for: body.bundleId)
        let jws = try signer.sign(body.offer, nonce: body.nonce)
        request.state.metrics.signed(SigningOperation.promotionalOffer)
        return OperationResponse(body: CommonSchemas.signedJWS(jws, keyId: signer.key.keyId))
    }.computingOnly().limitingBundles(to: .requestBundleId)
}

/// The body of `signPromotionalOffer`.
struct PromotionalOfferBody: OperationBody {
    let bundleId: String
    let offer: PromotionalOfferRequest
    let nonce: UUID?

    init(validated body: ValidatedBody) throws(ServiceProblem) {
        bundleId = try body(Members.bundleId)
        offer = PromotionalOfferRequest(
            productId: try body(Members.productId), offerIdentifier: try body(Members.offerIdentifier),
            transactionId: try body(Members.transactionId))
        nonce = try CommonSchemas.nonce(body(Members.nonce))
    }

    enum Members {
        static let bundleId = CommonSchemas.bundleIdMember
        static let productId = CommonSchemas.productIdMember
        static let offerIdentifier = CommonSchemas.offerIdentifierMember
        static let transactionId: BodyMember<String?> = .optional(
            "transactionId", CommonSchemas.transactionId, .string)
        static let nonce = CommonSchemas.nonceMember
    }

    static let schema = JSONSchema.object(
        [
            Members.bundleId.property, Members.productId.property, Members.offerIdentifier.property,
            Members.transactionId.property, Members.nonce.property,
        ], description: "A promotional offer to sign."
    ).named("PromotionalOfferRequest").example(
        .object([
            ("bundleId", .string("com.example.offerkit.demo")), ("productId", .string("com.example.monthly")),
            ("offerIdentifier", .string("WINBACK50")), ("transactionId", .string("2000000123456789")),
        ]))
}
