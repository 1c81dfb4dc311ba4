import OfferJSON
import OfferSigning

/// The document's prose: `info`, the tags, the security scheme and the list of problem types.
package enum OpenAPIInfo {
    package static let title = "OfferKit signing service"
    package static let server = "http://127.0.0.1:8080"
    package static let securitySchemeName = "apiKey"

    /// What each tag of ``OperationContract/tag`` groups. A tag missing here is written without a
    /// description, and the tests report it.
    package static let tagDescriptions: [String: String] = [
        "Signatures": """
        Signatures for StoreKit and the App Store: V2 promotional offers (compact JWS), legacy promotional offer \
        signatures, introductory offer eligibility and Advanced Commerce requests, made with the In-App Purchase key \
        the service holds for the app named by `bundleId`.
        """,
        "Tokens": """
        Short-lived JSON Web Tokens for calling Apple's APIs: the App Store Server API (per app) and the App Store \
        Connect API (team-wide).
        """,
        "Campaigns": """
        Offer-code campaigns, stateless: validate a campaign file, or plan the App Store Connect requests that \
        create it. Nothing is sent to Apple and nothing is recorded.
        """,
        "Codes": """
        Offer codes handed out exactly once from the service's code ledger (the one `offerkit codes` records \
        campaigns in, SQLite or PostgreSQL): claim a code for a recipient, read a campaign's status. Only a service \
        configured with a ledger (`"ledger"`) has these operations (`x-offerkit-requires-ledger: true`); without \
        one they answer `404 not-found` and are absent from the service's own `/openapi.json`. Scope `codes`.
        """,
        "Retention Messaging": """
        The Get Retention Message endpoint, which the App Store calls (not your code) while a customer looks at \
        cancelling a subscription: no API key, Apple's signature authenticates each request. Only a service \
        configured with `retention` has it (`x-offerkit-requires-retention: true`), at its `retention.path`.
        """,
        "Service": "The service itself: liveness, readiness, metrics and this document.",
    ]

    /// The `info` object.
    package static var info: JSONValue {
        .object([
            ("title", .string(title)), ("version", .string(OfferKitVersion.current)),
            ("description", .string(description)),
        ])
    }

    /// The `tags` list, in the order `operations` first use them.
    package static func tags(of operations: [OperationContract]) -> JSONValue {
        var names: [String] = []
        for operation in operations where !names.contains(operation.tag) { names.append(operation.tag) }
        return .array(
            names.map { name in
                .members([("name", .string(name)), ("description", tagDescriptions[name].map(JSONValue.string))])
            })
    }

    /// `components/securitySchemes`.
    package static var securitySchemes: JSONValue {
        let scopes = OperationScope.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ")
        let description = """
            An API key as a bearer token: `Authorization: Bearer \(APIKeyFormat.secretPrefix)…`. A key is \
            `\(APIKeyFormat.secretPrefix)` followed by 43 base64url characters (32 random bytes); the service keeps \
            only its SHA-256 digest and compares in constant time. Create one with `offerkit api-key create`. Each key \
            has scopes, the kinds of operation it may call (\(scopes); each operation's security requirement names \
            the one it needs; the batch names none and checks each item's), and may be limited to some bundle IDs.
            """
        return .object([
            (
                securitySchemeName,
                .object([
                    ("type", .string("http")), ("scheme", .string("bearer")),
                    ("bearerFormat", .string("\(APIKeyFormat.secretPrefix)<43 base64url characters>")),
                    ("description", .string(description)),
                ])
            )
        ])
    }

    /// `x-problem-types`: every problem type, for tools.
    package static var problemTypes: JSONValue {
        .array(
            ProblemType.all.map { type in
                .object([
                    ("type", .string(type.uri)), ("slug", .string(type.slug)), ("status", .integer(type.status)),
                    ("title", .string(type.title)), ("explanation", .string(type.explanation)),
                ])
            })
    }

    private static var description: String {
        let rows = ProblemType.all.map { type in
            "| `\(type.slug)` | \(type.status) | \(type.title) | \(type.explanation.replacingOccurrences(of: "|", with: "\\|")) |"
        }
        return """
            Signs App Store In-App Purchase requests over HTTP, so services in any language can ask one place that \
            holds the keys: V2 promotional offers, legacy promotional offer signatures, introductory offer \
            eligibility, Advanced Commerce requests, App Store Server API and App Store Connect API tokens, \
            stateless offer-code campaign validation and planning, and, with a code ledger, offer codes handed out \
            exactly once. One service serves several apps; each request names its app by `bundleId`.

            **Authentication.** Every operation except the public service endpoints needs an API key as a bearer \
            token (see the `\(securitySchemeName)` security scheme). Each key has scopes and may be limited to some \
            bundle IDs: a missing or unknown key is `401 unauthorized`, a key without the scope or the bundle ID is \
            `403 forbidden` (in a batch, for that item only). Every operation that acts for an app checks the limit \
            against that app, as the table says; a key limited to other bundle IDs gets the `403` whether or not the \
            service serves the app, and a key that may use a bundle ID the service does not serve gets \
            `404 unknown-app`.

            \(BundleLimit.authorizationTable(OperationContract.all))

            **Limits.** Request bodies are JSON (`Content-Type: application/json`) up to the configured size (a \
            larger `Content-Length` is `413` before any of the body is read); each API key has a rate limit (`429` \
            with `Retry-After`; a batch takes one token per item); each operation runs under a timeout, its body included (`408` while the body is \
            still arriving). Chunk sizes that add up to more than the limit are `413` as soon as they arrive. Broken \
            HTTP framing (a body shorter than its `Content-Length`, a bad chunk, a `Transfer-Encoding` other than \
            `chunked` alone) is `400 bad-request`. After a `400 bad-request`, `408` or \
            `413` the connection is closed (`Connection: close`). Responses that \
            carry signatures or tokens have `Cache-Control: no-store`. Every response has an `X-Request-Id`.

            **Problems.** Every error is an RFC 9457 problem (`application/problem+json`, the `Problem` schema) \
            whose `type` is one of the stable URIs `urn:offerkit:problem:<slug>` below (also listed in \
            `x-problem-types`). A path the service does not have is `404 not-found`; a known path with another \
            method is `405 method-not-allowed` with an `Allow` header (the `NotFound` and `MethodNotAllowed` \
            responses under `components/responses`). A 5xx never exposes internals; the log has them under the \
            request id.

            **Names.** A request member that takes one of a few names (an `enum` here: a claim's `environment`, a \
            batch item's `type`, an Advanced Commerce `operation` or `period`) is matched in any case: `sandbox`, \
            `Sandbox` and `SANDBOX` are the `SANDBOX` this document lists. Answers write the spelling listed, \
            Apple's where Apple names the value (App Store Connect's `PRODUCTION`/`SANDBOX` for offer codes). A \
            name that is not listed is `422 invalid-field`, naming the member, the value sent and the names listed.

            | Problem | Status | Title | When |
            | --- | --- | --- | --- |
            \(rows.joined(separator: "\n"))
            """
    }
}
