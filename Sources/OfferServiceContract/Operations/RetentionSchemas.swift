import OfferJSON

/// The schemas of the Get Retention Message endpoint: Apple's `RealtimeRequestBody` and
/// `RealtimeResponseBody` with Apple's member names. They document the endpoint; its body is read
/// by `RealtimeRequestBody` of `OfferRetentionEndpoint`, whatever the schemas say.
package enum RetentionSchemas {
    /// The endpoint's path when the service's `retention` section names none (the service's
    /// `RetentionConfiguration.defaultPath`), and the path of the committed document.
    package static let defaultPath = "/v1/retention/realtime"
    /// The largest body the endpoint reads: `RealtimeRequestBody.maximumBytes` of `OfferRetentionEndpoint`
    /// (a test of the service checks that they agree).
    package static let maximumRequestBytes = 64 * 1024

    package static let messageIdentifier = JSONSchema.string(
        StringRules(format: .uuid),
        description: "The identifier of a message uploaded to Apple; it must be APPROVED.",
        example: "7c9e6679-7425-40de-944b-e07fc1f90ae7")

    package static let requestBody = JSONSchema.object(
        [
            .init(
                "signedPayload",
                .string(
                    StringRules(minLength: 1),
                    description: "A DecodedRealtimeRequestBody signed by the App Store: a compact JWS whose `x5c` "
                        + "header holds the certificate chain.",
                    example: "eyJhbGciOiJFUzI1NiIsIng1YyI6WyJNSUlFTURDQ0E3YWdBd0lCQWdJUWZUbGZkMGZOdkZXdnpDMVlJQU…"))
        ], description: "Apple's RealtimeRequestBody: what the App Store posts."
    ).named("RealtimeRequestBody")

    package static let message = JSONSchema.object(
        [.init("messageIdentifier", messageIdentifier)], description: "A retention message (text, optional image)."
    ).named("RetentionMessage")

    package static let alternateProduct = JSONSchema.object(
        [
            .init("messageIdentifier", messageIdentifier),
            .init(
                "productId",
                .string(
                    .identifier(), description: "The subscription to suggest switching to.",
                    example: "com.example.offerkit.monthly")),
            .init(
                "billingPlanType", .enumeration(["MONTHLY", "BILLED_UPFRONT"], description: "How it is billed."),
                required: false),
        ], description: "A switch-plan message."
    ).named("AlternateProduct")

    package static let signatureV1 = JSONSchema.object(
        [
            .init(
                "encodedSignature",
                .string(
                    StringRules(minLength: 1), description: "The DER ECDSA signature, standard base64.",
                    example: "MEUCIQDk2rG4Lw7X0yQ9kY3nGJ8m…")),
            .init(
                "productId",
                .string(
                    .identifier(), description: "The offer's subscription.", example: "com.example.offerkit.monthly")),
            .init(
                "nonce",
                .string(
                    StringRules(format: .uuid), description: "The nonce that was signed, lower case.",
                    example: "6d766d14-8f5c-4b7e-9a1d-2c3b4a5f6e7d")),
            .init(
                "timestamp",
                .integer(
                    minimum: 0, description: "UNIX time in milliseconds that was signed.", example: 1_772_366_400_000)),
            .init("keyId", .string(.identifier(), description: "The key ID that signed.", example: "DEMOKEY123")),
            .init(
                "offerIdentifier",
                .string(.identifier(), description: "The promotional offer.", example: "WINBACK50")),
            .init(
                "appAccountToken",
                .string(
                    StringRules(format: .uuid),
                    description:
                        "The customer's app account token that was signed, lower case: only when a "
                        + "`RetentionDecider` of a Swift server embedding OfferService gave one.",
                    example: "e3b1c9a2-5d4f-4a6b-8c7d-9e0f1a2b3c4d"),
                required: false),
        ], description: "The legacy promotional offer signature (version 1)."
    ).named("PromotionalOfferSignatureV1")

    package static let promotionalOffer = JSONSchema.object(
        [
            .init("messageIdentifier", messageIdentifier),
            .init(
                "promotionalOfferSignatureV2",
                .string(
                    StringRules(minLength: 1),
                    description: "The promotional-offer compact JWS, `transactionId` = the request's "
                        + "`originalTransactionId`.",
                    example: "eyJhbGciOiJFUzI1NiIsImtpZCI6IkRFTU9LRVkxMjMiLCJ0eXAiOiJKV1QifQ.eyJpc3Mi…"),
                required: false),
            .init("promotionalOfferSignatureV1", signatureV1, required: false),
        ], description: "A message with a promotional offer: one of the two signatures."
    ).named("PromotionalOffer")

    package static let advancedCommerceInfo = JSONSchema.object(
        [
            .init("messageIdentifier", messageIdentifier),
            .init(
                "advancedCommerceData",
                .string(
                    StringRules(minLength: 1),
                    description: "Standard base64 of the UTF-8 JSON {\"signatureInfo\":{\"token\":\"<JWS>\"}}, the JWS "
                        + "an Advanced Commerce MODIFY_SUBSCRIPTION request with one changeItems entry.",
                    example: "eyJzaWduYXR1cmVJbmZvIjp7InRva2VuIjoiZXlKaGJHY2lPaUpGVXpJMU5pSXNJbXRwWkNJNklr…")),
        ], description: "A message with an Advanced Commerce offer or switch plan."
    ).named("AdvancedCommerceInfo")

    package static let responseBody = JSONSchema.object(
        [
            .init("message", message, required: false),
            .init("alternateProduct", alternateProduct, required: false),
            .init("promotionalOffer", promotionalOffer, required: false),
            .init("advancedCommerceInfo", advancedCommerceInfo, required: false),
        ],
        description: "Apple's RealtimeResponseBody: at most one member; `{}` when nothing is chosen (Apple shows the "
            + "default message)."
    ).named("RealtimeResponseBody").example(
        .object([
            (
                "promotionalOffer",
                .object([
                    ("messageIdentifier", .string("7c9e6679-7425-40de-944b-e07fc1f90ae7")),
                    (
                        "promotionalOfferSignatureV2",
                        .string("eyJhbGciOiJFUzI1NiIsImtpZCI6IkRFTU9LRVkxMjMiLCJ0eXAiOiJKV1QifQ.eyJpc3Mi…")
                    ),
                ])
            )
        ]))
}
