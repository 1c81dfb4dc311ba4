import OfferSigning

extension OperationContract {
    /// `POST /v1/tokens/server-api`: a bearer token for the App Store Server API.
    package static let createServerAPIToken = OperationContract(
        id: "createServerAPIToken", method: .post, path: "/v1/tokens/server-api", tag: "Tokens",
        summary: "Create an App Store Server API token",
        description: """
            Signs a bearer token for the App Store Server API (`https://api.storekit.apple.com`) with the \
            app's In-App Purchase key: claims `iss` (issuer ID), `iat`, `exp`, `aud` = `appstoreconnect-v1` and \
            `bid` (the bundle ID). Apple accepts at most 60 minutes between `iat` and `exp`; the default lifetime \
            is 5 minutes, as in Apple's libraries. Reuse a token until shortly before `expiresAt`.
            """,
        scope: .serverAPIToken, body: ServerAPITokenBody.self, responseSchema: CommonSchemas.bearerToken,
        problems: [.unknownApp, .forbidden]
    ).computingOnly().limitingBundles(to: .requestBundleId)
}

/// The body of `createServerAPIToken`.
package struct ServerAPITokenBody: OperationBody {
    package let bundleId: String
    /// Seconds; the schema bounds it to 1...3600.
    package let lifetime: Int?

    package init(validated body: ValidatedBody) throws(ServiceProblem) {
        bundleId = try body(Members.bundleId)
        lifetime = try body(Members.lifetime).map { Int($0) }
    }

    package enum Members {
        package static let bundleId = CommonSchemas.bundleIdMember
        package static let lifetime: BodyMember<Int64?> = .optional(
            "lifetime",
            .integer(
                minimum: 1, maximum: Int64(OfferSigner.serverAPITokenMaximumLifetime),
                description: "Seconds from `iat` to `exp`, at most 3600 (60 minutes). Default: 300 (5 minutes).",
                example: 300),
            .integer)
    }

    package static let schema = JSONSchema.object(
        [Members.bundleId.property, Members.lifetime.property],
        description: "The app to sign an App Store Server API token for, and how long the token lives."
    ).example(.object([("bundleId", .string("com.example.offerkit.demo")), ("lifetime", .integer(300))]))
        .named("ServerAPITokenRequest")
}
