import HTTPTypes

/// A class of error the service reports as an RFC 9457 problem. Its `type` URI is stable:
/// clients may branch on it.
public struct ProblemType: Sendable, Hashable {
    /// The last part of the `type` URI, such as `invalid-field`.
    public let slug: String
    /// The HTTP status that goes with it.
    public let status: Int
    /// A short, fixed summary (the problem's `title`).
    public let title: String
    /// When clients see it and what to do, for the OpenAPI document and docs/service.md.
    public let explanation: String

    /// The problem's `type` member: `urn:offerkit:problem:<slug>`.
    public var uri: String { "urn:offerkit:problem:\(slug)" }

    package var httpStatus: HTTPResponse.Status { HTTPResponse.Status(code: status) }

    /// Whether the response closes the connection (`Connection: close`): the problem leaves the rest
    /// of the request unread or unreadable, so no further request could be told from it.
    package var closesConnection: Bool { self == .badRequest || self == .bodyTooLarge || self == .bodyTimeout }
}

extension ProblemType {
    public static let badRequest = ProblemType(
        slug: "bad-request", status: 400, title: "The request is not well-formed HTTP",
        explanation: """
            The request's framing is broken: the body ended before its `Content-Length` or its final chunk, a chunk \
            size is invalid, `Transfer-Encoding` is not `chunked` alone (`gzip, chunked` too), or the connection failed \
            while the body was being read. The connection is closed.
            """)
    public static let malformedJSON = ProblemType(
        slug: "malformed-json", status: 400, title: "The request body is not valid JSON",
        explanation: "The body could not be parsed as JSON (RFC 8259). `detail` says where parsing stopped.")
    public static let invalidField = ProblemType(
        slug: "invalid-field", status: 422, title: "A field is missing or invalid",
        explanation: "A field does not match the operation's schema or the signing rules. `field` is its path.")
    public static let invalidCampaign = ProblemType(
        slug: "invalid-campaign", status: 422, title: "The campaign has problems",
        explanation: """
            The campaign cannot be planned. `problems` lists the problems (the first 1000) with their JSON paths and \
            rules; `problemCount` is the total.
            """)
    public static let unauthorized = ProblemType(
        slug: "unauthorized", status: 401, title: "A valid API key is required",
        explanation: "The `Authorization: Bearer <API key>` header is missing, malformed or names no known key.")
    public static let unverifiedRequest = ProblemType(
        slug: "unverified-request", status: 401, title: "Not a verified App Store request",
        explanation: """
            The Get Retention Message endpoint answers only a `signedPayload` the App Store signed (its certificate \
            chain to a trusted root, its signature) for an app and environment the service serves, at most \
            `maxRequestAgeSeconds` old. Why a request was refused is in the service's log and in \
            `offerkit_retention_rejections_total`, never in the answer.
            """)
    public static let forbidden = ProblemType(
        slug: "forbidden", status: 403, title: "The API key may not do this",
        explanation: "The API key is valid but its scopes do not include this operation or this bundle ID.")
    public static let unknownApp = ProblemType(
        slug: "unknown-app", status: 404, title: "No app with this bundle ID is configured",
        explanation: """
            The app the request acts for (its `bundleId`, or its campaign's app: `app.bundleId`, or the app the \
            ledger recorded for the campaign) is not in the service's configuration. `field` names the member.
            """)
    public static let unknownCampaign = ProblemType(
        slug: "unknown-campaign", status: 404, title: "No campaign of this name is in the ledger",
        explanation: """
            The service's code ledger has no campaign of this name: record it first with `offerkit codes generate` \
            or `offerkit codes import` on the same ledger.
            """)
    public static let unknownOffer = ProblemType(
        slug: "unknown-offer", status: 404, title: "The campaign has no offer of this name in the ledger",
        explanation: "The campaign is in the ledger, but no offer of it has this `referenceName`.")
    public static let notConfigured = ProblemType(
        slug: "not-configured", status: 404, title: "This operation is not configured",
        explanation:
            "The operation needs credentials the service was not given (for example an App Store Connect API key).")
    public static let notFound = ProblemType(
        slug: "not-found", status: 404, title: "No such endpoint",
        explanation: "The path is not one of the service's endpoints; see the OpenAPI document at /openapi.json.")
    public static let methodNotAllowed = ProblemType(
        slug: "method-not-allowed", status: 405, title: "Method not allowed",
        explanation: "The endpoint exists but not for this HTTP method; the `Allow` header lists the methods it takes.")
    public static let bodyTooLarge = ProblemType(
        slug: "body-too-large", status: 413, title: "The request body is too large",
        explanation: """
            The body is larger than the service's limit (`limits.maxBodyBytes`); a `Content-Length` over it is refused \
            before any of the body is read, and chunk sizes that add up to more as soon as they arrive. The connection \
            is closed.
            """)
    public static let bodyTimeout = ProblemType(
        slug: "body-timeout", status: 408, title: "The request body did not arrive in time",
        explanation: """
            The client had not sent the whole body when the request timeout (`limits.requestTimeoutSeconds`) passed. \
            The connection is closed.
            """)
    public static let noCodeLeft = ProblemType(
        slug: "no-code-left", status: 409, title: "No code of the offer is left to hand out",
        explanation: """
            Every code of the offer that can be handed out in the environment is handed out; nothing was assigned. \
            `assigned` and `stored` count them (for shared codes: recipients and redemptions). Add codes to the \
            offer (a new batch, then `offerkit codes generate` or `import`); recipients who already hold a code \
            still get it.
            """)
    public static let nothingToAssign = ProblemType(
        slug: "nothing-to-assign", status: 409, title: "The offer has no codes to hand out",
        explanation: """
            The offer has no codes in the environment at all: no batch, every batch expired, or its one-time-use \
            codes are not imported from Apple yet. `detail` says which; nothing was assigned.
            """)
    public static let offerInactive = ProblemType(
        slug: "offer-inactive", status: 409, title: "The offer is inactive",
        explanation: """
            The offer is marked inactive in the ledger (App Store Connect's `active` switch is off), so its codes \
            cannot be redeemed and none is handed out.
            """)
    public static let unsupportedMediaType = ProblemType(
        slug: "unsupported-media-type", status: 415, title: "The body must be JSON",
        explanation: "Operations with a body take `Content-Type: application/json`.")
    public static let rateLimited = ProblemType(
        slug: "rate-limited", status: 429, title: "Too many requests for this API key",
        explanation: "The API key's rate limit is used up; retry after the seconds in `Retry-After`.")
    public static let timeout = ProblemType(
        slug: "timeout", status: 503, title: "The request took too long",
        explanation: "The operation did not finish within the service's request timeout; it was stopped.")
    public static let unavailable = ProblemType(
        slug: "unavailable", status: 503, title: "The service is not ready",
        explanation: "The service is shutting down or not yet ready; retry against another instance.")
    public static let ledgerUnavailable = ProblemType(
        slug: "ledger-unavailable", status: 503, title: "The code ledger is unavailable",
        explanation: """
            The service's code ledger could not be read or written (its database cannot be reached, another writer \
            held it too long, or it looks damaged). Retry: a claim is idempotent, so a retry returns the same code \
            if this one was recorded after all. A promotional offer's signature gets it only when the service has \
            a ledger and has never read its promotional offers. The log has the cause under the request id.
            """)
    public static let internalError = ProblemType(
        slug: "internal-error", status: 500, title: "Internal error",
        explanation:
            "Something failed inside the service. Nothing about it is exposed; the log has it under the request id.")

    /// Every problem type the service can return.
    public static let all: [ProblemType] = [
        .badRequest, .malformedJSON, .invalidField, .invalidCampaign, .unauthorized, .unverifiedRequest, .forbidden,
        .unknownApp,
        .unknownCampaign, .unknownOffer, .notConfigured, .notFound, .methodNotAllowed, .bodyTimeout, .noCodeLeft,
        .nothingToAssign, .offerInactive, .bodyTooLarge, .unsupportedMediaType, .rateLimited, .timeout, .unavailable,
        .ledgerUnavailable, .internalError,
    ]
}
