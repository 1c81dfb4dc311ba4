import Foundation
import OfferJSON
import OfferSigning

/// Schemas that several operations share.
package enum CommonSchemas {
    package static let bundleId = JSONSchema.string(
        StringRules(format: .bundleId, maxLength: 255),
        description: "The app's bundle ID; the service must be configured with it.",
        example: "com.example.offerkit.demo")

    package static let nonce = JSONSchema.string(
        StringRules(format: .uuidV4),
        description: "A nonce (random UUID, version 4). Leave it out and the service makes a fresh one.",
        example: "9f2d3c1e-6b1f-4a9e-8c8e-2a4f5d6b7c8d")

    /// The legacy signature takes any UUID as its nonce.
    package static let legacyNonce = JSONSchema.string(
        StringRules(format: .uuid),
        description: "A nonce (a UUID). Leave it out and the service makes a fresh random one.",
        example: "9f2d3c1e-6b1f-4a9e-8c8e-2a4f5d6b7c8d")

    package static let productId = JSONSchema.string(
        .identifier(), description: "The product ID from App Store Connect.", example: "com.example.monthly")

    package static let offerIdentifier = JSONSchema.string(
        .identifier(), description: "The promotional offer's identifier.", example: "WINBACK50")

    package static let transactionId = JSONSchema.string(
        .identifier(), description: "A transaction ID of the customer.", example: "2000000123456789")

    package static let jws = JSONSchema.string(
        StringRules(minLength: 1), description: "The compact JWS: header.payload.signature, base64url, ES256.",
        example: "eyJhbGciOiJFUzI1NiIsImtpZCI6IjJYOVI0SFhGMzQiLCJ0eXAiOiJKV1QifQ.eyJ…In0.MEUCIQ…")

    package static let keyId = JSONSchema.string(
        .identifier(), description: "The key ID of the key that signed.", example: "2X9R4HXF34")

    package static let issuedAt = JSONSchema.integer(
        minimum: 0, description: "The `iat` claim: UNIX time in seconds.", example: 1_763_712_000)

    /// The response of the compact JWS operations.
    package static let signedJWS = JSONSchema.object(
        [
            .init("jws", jws), .init("keyId", keyId),
            .init(
                "nonce",
                .string(
                    StringRules(format: .uuidV4), description: "The nonce in the payload, lower case.",
                    example: "9f2d3c1e-6b1f-4a9e-8c8e-2a4f5d6b7c8d")),
            .init("issuedAt", issuedAt),
        ], description: "A signed compact JWS and the values it carries."
    ).named("SignedJWS")

    /// The JSON of a compact JWS response.
    package static func signedJWS(_ jws: CompactJWS, keyId: String) -> JSONValue {
        .object([
            ("jws", .string(jws.serialization)), ("keyId", .string(keyId)), ("nonce", .string(jws.nonceString ?? "")),
            ("issuedAt", .integer(jws.issuedAtSeconds)),
        ])
    }

    /// A body's nonce, parsed (the schema has checked its format).
    package static func nonce(_ text: String?) throws(ServiceProblem) -> UUID? {
        guard let text else { return nil }
        guard let uuid = UUID(uuidString: text) else {
            throw ServiceProblem(
                .invalidField, detail: "nonce: expected a UUID, found a string of \(text.count) characters",
                field: "nonce")
        }
        return uuid
    }

    // MARK: Members that several bodies share

    package static let bundleIdMember: BodyMember<String> = .required("bundleId", bundleId, .string)
    package static let productIdMember: BodyMember<String> = .required("productId", productId, .string)
    package static let offerIdentifierMember: BodyMember<String> = .required(
        "offerIdentifier", offerIdentifier, .string)
    package static let nonceMember: BodyMember<String?> = .optional("nonce", nonce, .string)
}

extension CommonSchemas {
    /// The response of the two API token operations.
    package static let bearerToken = JSONSchema.object(
        [
            .init(
                "token",
                .string(
                    StringRules(minLength: 1),
                    description: "The bearer token, a compact JWS (ES256). Send it as `Authorization: Bearer <token>`.",
                    example: "eyJhbGciOiJFUzI1NiIsImtpZCI6IjJYOVI0SFhGMzQiLCJ0eXAiOiJKV1QifQ.eyJpc3Mi…In0.k3Rw…")),
            .init("issuedAt", issuedAt),
            .init(
                "expiresAt",
                .integer(
                    minimum: 0, description: "The `exp` claim: UNIX time in seconds, when the token stops working.",
                    example: 1_763_712_300)),
        ], description: "A signed API bearer token and when it was issued and expires."
    ).named("BearerToken")

    /// The JSON of a bearer token response.
    package static func bearerToken(_ token: BearerToken) -> JSONValue {
        .object([
            ("token", .string(token.token)),
            ("issuedAt", .integer(token.issuedAtSeconds)),
            ("expiresAt", .integer(token.expiresAtSeconds)),
        ])
    }
}
