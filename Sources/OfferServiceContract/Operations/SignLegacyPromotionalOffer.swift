import Foundation
import OfferJSON
import OfferSigning

extension OperationContract {
    /// `POST /v1/signatures/legacy-promotional-offer`: a promotional offer signed the legacy way (version 1).
    package static let signLegacyPromotionalOffer = OperationContract(
        id: "signLegacyPromotionalOffer", method: .post, path: "/v1/signatures/legacy-promotional-offer",
        tag: "Signatures",
        summary: "Sign a promotional offer (legacy signature, version 1)",
        description: """
            Signs a promotional offer the legacy way: ECDSA P-256 with SHA-256 over `bundleId`, `keyId`, `productId`, \
            `offerIdentifier`, `appAccountToken` (lower-cased), `nonce` and `timestamp` (UNIX milliseconds) joined by \
            U+2063, DER-encoded and then base64. The response holds exactly what StoreKit takes: \
            `Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)` (StoreKit 2), \
            `SKPaymentDiscount(identifier:keyIdentifier:nonce:signature:timestamp:)` (StoreKit 1), and Retention \
            Messaging's `promotionalOfferSignatureV1`. The app must pass `signature` base64-*decoded* to `Data`, \
            and make the purchase with the same app account token (or application username) that was signed.
            """,
        scope: .legacyPromotionalOffer, body: LegacyPromotionalOfferBody.self,
        responseSchema: LegacyPromotionalOfferBody.responseSchema,
        problems: [.unknownApp, .forbidden, .ledgerUnavailable]
    ).computingOnly().limitingBundles(to: .requestBundleId)

    /// `POST /v1/signatures/promotional-offer-v1`: the earlier path of ``signLegacyPromotionalOffer``,
    /// still served (deprecated).
    package static let signLegacyPromotionalOfferDeprecatedPath = signLegacyPromotionalOffer.deprecatedAlias(
        id: "signLegacyPromotionalOfferDeprecatedPath", path: "/v1/signatures/promotional-offer-v1")
}

/// The body and the response of `signLegacyPromotionalOffer`.
package struct LegacyPromotionalOfferBody: OperationBody {
    package let bundleId: String
    package let offer: LegacyPromotionalOfferRequest
    package let nonce: UUID?

    package init(validated body: ValidatedBody) throws(ServiceProblem) {
        bundleId = try body(Members.bundleId)
        offer = LegacyPromotionalOfferRequest(
            productId: try body(Members.productId), offerIdentifier: try body(Members.offerIdentifier),
            appAccountToken: try body(Members.appAccountToken) ?? "")
        nonce = try CommonSchemas.nonce(body(Members.nonce))
    }

    package enum Members {
        package static let bundleId = CommonSchemas.bundleIdMember
        package static let productId = CommonSchemas.productIdMember
        package static let offerIdentifier = CommonSchemas.offerIdentifierMember
        package static let appAccountToken: BodyMember<String?> = .optional(
            "appAccountToken", LegacyPromotionalOfferBody.appAccountToken, .string)
        package static let nonce: BodyMember<String?> = .optional("nonce", CommonSchemas.legacyNonce, .string)
    }

    package static let schema = JSONSchema.object(
        [
            Members.bundleId.property, Members.productId.property, Members.offerIdentifier.property,
            Members.appAccountToken.property, Members.nonce.property,
        ], description: "A promotional offer to sign with the legacy (version 1) signature."
    ).named("LegacyPromotionalOfferRequest").example(
        .object([
            ("bundleId", .string("com.example.offerkit.demo")), ("productId", .string("com.example.monthly")),
            ("offerIdentifier", .string("WINBACK50")),
            ("appAccountToken", .string("e3b1c9a2-5f4d-4c8e-9a7b-1d2e3f4a5b6c")),
        ]))

    package static let appAccountToken = JSONSchema.string(
        StringRules(format: .plainText),
        description: """
            The customer's app account token (StoreKit 2: a UUID) or application username (StoreKit 1). It is \
            lower-cased before signing; the purchase must carry the same value. Leave it out, or send an empty \
            string, when the app sets none.
            """,
        example: "e3b1c9a2-5f4d-4c8e-9a7b-1d2e3f4a5b6c")

    /// The response: the signature and every value StoreKit needs with it.
    package static let responseSchema = JSONSchema.object(
        [
            .init("keyId", CommonSchemas.keyId),
            .init(
                "nonce",
                .string(
                    StringRules(format: .uuid),
                    description: "The nonce that was signed, lower-case (StoreKit's `nonce:` takes it as a UUID).",
                    example: "9f2d3c1e-6b1f-4a9e-8c8e-2a4f5d6b7c8d")),
            .init(
                "timestamp",
                .integer(
                    minimum: 0, description: "The signed time: UNIX time in milliseconds.",
                    example: 1_763_712_000_000)),
            .init(
                "signature",
                .string(
                    StringRules(minLength: 1),
                    description: """
                        The ECDSA signature, DER-encoded, standard base64 with padding. Decode it to `Data` before \
                        passing it to StoreKit.
                        """,
                    example: exampleSignature)),
            .init("productId", CommonSchemas.productId),
            .init("offerIdentifier", CommonSchemas.offerIdentifier),
            .init(
                "appAccountToken",
                .string(
                    StringRules(format: .plainText),
                    description: "The app account token that was signed, lower-cased; empty when none was.",
                    example: "e3b1c9a2-5f4d-4c8e-9a7b-1d2e3f4a5b6c")),
        ], description: "A legacy promotional offer signature and the values that were signed with it."
    ).named("LegacyPromotionalOfferSignature").example(
        .object([
            ("keyId", .string("DEMOKEY123")), ("nonce", .string("9f2d3c1e-6b1f-4a9e-8c8e-2a4f5d6b7c8d")),
            ("timestamp", .integer(1_763_712_000_000)),
            ("signature", .string(exampleSignature)),
            ("productId", .string("com.example.monthly")), ("offerIdentifier", .string("WINBACK50")),
            ("appAccountToken", .string("e3b1c9a2-5f4d-4c8e-9a7b-1d2e3f4a5b6c")),
        ]))

    /// The request example's signature with the example nonce and timestamp, really signed with the
    /// demo key in keys-example/ (verifiable with its public key).
    package static let exampleSignature =
        "MEQCIA71hX1Jc6D44HSAbzw/ICu1CVXRSYXHr2pbJk9B3NVEAiAsNqMwJ2hfnSP71GC5Nn28MZb/gpcVbBdZ+imb5StrLA=="

    /// The JSON of a signature.
    package static func response(_ signature: LegacyPromotionalOfferSignature) -> JSONValue {
        .object([
            ("keyId", .string(signature.keyId)), ("nonce", .string(signature.nonceString)),
            ("timestamp", .integer(signature.timestamp)), ("signature", .string(signature.signature)),
            ("productId", .string(signature.productId)), ("offerIdentifier", .string(signature.offerIdentifier)),
            ("appAccountToken", .string(signature.appAccountToken)),
        ])
    }
}
