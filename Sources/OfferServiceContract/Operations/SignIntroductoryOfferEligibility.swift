import Foundation
import OfferSigning

extension OperationContract {
    /// `POST /v1/signatures/introductory-offer-eligibility`: introductory-offer eligibility as a compact JWS.
    package static let signIntroductoryOfferEligibility = OperationContract(
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
    ).computingOnly().limitingBundles(to: .requestBundleId)
}

/// The body of `signIntroductoryOfferEligibility`.
package struct IntroductoryOfferEligibilityBody: OperationBody {
    package let bundleId: String
    package let eligibility: IntroductoryOfferEligibilityRequest
    package let nonce: UUID?

    package init(validated body: ValidatedBody) throws(ServiceProblem) {
        bundleId = try body(Members.bundleId)
        eligibility = IntroductoryOfferEligibilityRequest(
            productId: try body(Members.productId), allowIntroductoryOffer: try body(Members.allowIntroductoryOffer),
            transactionId: try body(Members.transactionId))
        nonce = try CommonSchemas.nonce(body(Members.nonce))
    }

    package enum Members {
        package static let bundleId = CommonSchemas.bundleIdMember
        package static let productId = CommonSchemas.productIdMember
        package static let allowIntroductoryOffer: BodyMember<Bool> = .required(
            "allowIntroductoryOffer",
            .boolean(
                description: "Whether the customer may get the subscription's introductory offer.", example: true),
            .bool)
        package static let transactionId: BodyMember<String> = .required(
            "transactionId", CommonSchemas.transactionId, .string)
        package static let nonce = CommonSchemas.nonceMember
    }

    package static let schema = JSONSchema.object(
        [
            Members.bundleId.property, Members.productId.property, Members.allowIntroductoryOffer.property,
            Members.transactionId.property, Members.nonce.property,
        ], description: "An introductory-offer eligibility statement to sign."
    ).named("IntroductoryOfferEligibilityRequest").example(
        .object([
            ("bundleId", .string("com.example.offerkit.demo")), ("productId", .string("com.example.monthly")),
            ("allowIntroductoryOffer", .bool(true)), ("transactionId", .string("2000000123456789")),
        ]))
}
