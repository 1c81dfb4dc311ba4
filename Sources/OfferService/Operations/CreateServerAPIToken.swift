import OfferSigning

extension ServiceOperation {
    /// `POST /v1/tokens/server-api`: a bearer token for the App Store Server API.
    static let createServerAPIToken = ServiceOperation(
        id: "createServerAPIToken", method: .post, path: "/v1/tokens/server-api", tag: "Tokens",
        summary: "Create an App Store Server API token",
        description: """
            Signs a bearer token for the App Store Server API (`https://api.storekit.itunes.apple.com`) with the \
            app's In-App Purchase key: claims `iss` (issuer ID), `iat`, `exp`, `aud` = `appstoreconnect-v1` and \
            `bid` (the bundle ID). Apple accepts at most 60 minutes between `iat` and `exp`; the default lifetime \
            is 5 minutes, as in Apple's libraries. Reuse a token until shortly before `expiresAt`.
            """,
        scope: .serverAPIToken, requestSchema: ServerAPITokenBody.schema, responseSchema: CommonSchemas.bearerToken,
        problems: [.unknownApp, .forbidden]
    ) { request in
        let signer = try request.signer(for: request.string("bundleId"))
        let token: BearerToken
        if let lifetime = request.optionalInteger("lifetime") {
            token = try signer.serverAPIToken(lifetime: Int(lifetime))
        } else {
            token = try signer.serverAPIToken()
        }
        request.state.metrics.signed(OperationScope.serverAPIToken.rawValue)
        return OperationResponse(body: CommonSchemas.bearerToken(token))
    }
}

/// The body of `createServerAPIToken`.
enum ServerAPITokenBody {
    static let schema = JSONSchema.object(
        [
            .init("bundleId", CommonSchemas.bundleID),
            .init(
                "lifetime",
                .integer(
                    minimum: 1, maximum: Int64(OfferSigner.serverAPITokenMaximumLifetime),
                    description: "Seconds from `iat` to `exp`, at most 3600 (60 minutes). Default: 300 (5 minutes).",
                    example: 300),
                required: false),
        ], description: "The app to sign an App Store Server API token for, and how long the token lives."
    ).example(.object([("bundleId", .string("com.example.offerkit.demo")), ("lifetime", .integer(300))]))
        .named("ServerAPITokenRequest")
}
