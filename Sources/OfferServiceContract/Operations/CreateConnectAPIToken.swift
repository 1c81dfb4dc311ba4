import OfferSigning

extension OperationContract {
    /// `POST /v1/tokens/connect-api`: a bearer token for the App Store Connect API.
    package static let createConnectAPIToken = OperationContract(
        id: "createConnectAPIToken", method: .post, path: "/v1/tokens/connect-api", tag: "Tokens",
        summary: "Create an App Store Connect API token",
        description: """
            Signs a bearer token for the App Store Connect API (`https://api.appstoreconnect.apple.com`) with the \
            service's App Store Connect API key (`connectApiKey` in the configuration; team-wide, so the request \
            names no bundle ID): claims `iss` (the issuer ID of a team key; an individual key has `sub` = `user` \
            instead), `iat`, `exp`, `aud` = `appstoreconnect-v1`, and `scope` when given. Apple accepts at most 20 \
            minutes between `iat` and `exp`; the default lifetime is 15 minutes, leaving room for clock skew. A \
            service configured without an App Store Connect API key answers 404 `not-configured`. The token acts for \
            the whole team, so an API key limited to some bundle IDs gets 403 `forbidden`.
            """,
        scope: .connectAPIToken, body: ConnectAPITokenBody.self, responseSchema: CommonSchemas.bearerToken,
        problems: [.notConfigured, .forbidden]
    ).computingOnly().limitingBundles(to: .everyApp)
}

/// The body of `createConnectAPIToken`.
package struct ConnectAPITokenBody: OperationBody {
    /// Seconds; the schema bounds it to 1...1200.
    package let lifetime: Int?
    /// The requests the token may make; empty for any.
    package let scope: [String]

    package init(validated body: ValidatedBody) throws(ServiceProblem) {
        lifetime = try body(Members.lifetime).map { Int($0) }
        scope = try body(Members.scope) ?? []
    }

    package enum Members {
        package static let lifetime: BodyMember<Int64?> = .optional(
            "lifetime",
            .integer(
                minimum: 1, maximum: Int64(ConnectAPITokenSigner.maximumLifetime),
                description: "Seconds from `iat` to `exp`, at most 1200 (20 minutes). Default: 900 (15 minutes).",
                example: 600),
            .integer)
        package static let scope: BodyMember<[String]?> = .optional(
            "scope",
            .array(
                of: .string(
                    .identifier(), description: "One request the token allows: method and path, with query.",
                    example: "GET /v1/apps"),
                description: """
                    The requests the token may make (the `scope` claim), such as `GET /v1/apps` or \
                    `GET /v1/apps?filter[platform]=IOS`. Leave it out for a token that may make any request \
                    the key may.
                    """),
            .strings)
    }

    package static let schema = JSONSchema.object(
        [Members.lifetime.property, Members.scope.property],
        description: "How long the App Store Connect API token lives and what it may do; `{}` takes the defaults."
    ).example(.object([("lifetime", .integer(600)), ("scope", .array([.string("GET /v1/apps")]))]))
        .named("ConnectAPITokenRequest")
}
