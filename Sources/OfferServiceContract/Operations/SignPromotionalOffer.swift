import Foundation
import OfferSigning

extension OperationContract {
    /// `POST /v1/signatures/promotional-offer`: a promotional offer as a V2 compact JWS.
    package static let signPromotionalOffer = OperationContract(
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
        problems: [.unknownApp, .forbidden, .ledgerUnavailable]
    ).computingOnly().limitingBundles(to: .requestBundleId)
}

/// The body of `signPromotionalOffer`.
package struct PromotionalOfferBody: OperationBody {
    package let bundleId: String
    package let offer: PromotionalOfferRequest
    package let nonce: UUID?

    package init(validated body: ValidatedBody) throws(ServiceProblem) {
        bundleId = try body(Members.bundleId)
        offer = PromotionalOfferRequest(
            productId: try body(Members.productId), offerIdentifier: try body(Members.offerIdentifier),
            transactionId: try body(Members.transactionId))
        nonce = try CommonSchemas.nonce(body(Members.nonce))
    }

    package enum Members {
        package static let bundleId = CommonSchemas.bundleIdMember
        package static let productId = CommonSchemas.productIdMember
        package static let offerIdentifier = CommonSchemas.offerIdentifierMember
        package static let transactionId: BodyMember<String?> = .optional(
            "transactionId", CommonSchemas.transactionId, .string)
        package static let nonce = CommonSchemas.nonceMember
    }

    package static let schema = JSONSchema.object(
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
