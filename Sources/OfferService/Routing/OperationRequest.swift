import HTTPTypes
import Logging
import OfferJSON
import OfferSigning

/// What an operation's handler gets: the validated body, the request's query and headers, the
/// authenticated API key, and the service's shared state.
public struct OperationRequest: Sendable {
    /// The body, already checked against the operation's request schema (`nil` when it takes none);
    /// handlers get it as their typed ``OperationBody``.
    package let body: JSONValue?
    /// The body as it came, for an operation with ``ServiceOperation/rawBodyLimit``; `nil` otherwise.
    package let rawBody: [UInt8]?
    /// The path's parameters (`ServiceOperation.pathParameters`), decoded and checked.
    public let parameters: [String: String]
    public let query: [String: String]
    public let headers: HTTPFields
    /// The API key that authenticated the request; `nil` when authentication is off.
    public let apiKey: APIKey?
    public let state: ServiceState
    public let logger: Logger
    /// The request's id (`X-Request-Id`), for problems an operation answers inside its body (a
    /// batch's items).
    package let requestId: String
    /// Adds values to the request's one log line.
    let annotate: @Sendable (Logger.Metadata) -> Void

    init(
        body: JSONValue?, rawBody: [UInt8]? = nil, parameters: [String: String] = [:], query: [String: String],
        headers: HTTPFields, apiKey: APIKey?, state: ServiceState, logger: Logger, requestId: String = "",
        annotate: @escaping @Sendable (Logger.Metadata) -> Void = { _ in }
    ) {
        self.requestId = requestId
        self.annotate = annotate
        self.body = body
        self.rawBody = rawBody
        self.parameters = parameters
        self.query = query
        self.headers = headers
        self.apiKey = apiKey
        self.state = state
        self.logger = logger
    }

    /// The signer for `bundleId`, if the API key may use that app and the app is configured.
    /// - Throws: a `forbidden` problem when the key's bundle-ID limit excludes the bundle ID, then an
    ///   `unknown-app` problem when no app has it (``authorize(bundleId:field:campaign:)``).
    public func signer(for bundleId: String) throws(ServiceProblem) -> OfferSigner {
        try authorize(bundleId: bundleId, field: "bundleId")
        guard let signer = state.apps.signer(for: bundleId) else {
            throw ServiceProblem(.internalError, detail: "the app \(bundleId) has no signer; please report it")
        }
        return signer
    }

    /// Checks, when the service has a ledger, that a promotional offer's signature names one of the
    /// product's offers the ledger knows (`AppliedPromotionalOffers`); without a ledger, or for a
    /// product it knows no promotional offer of, nothing is refused.
    ///
    /// - Throws: an `invalid-field` problem at `offerIdentifier` naming the product's offers; 503
    ///   `ledger-unavailable` when the ledger cannot be read.
    func checkPromotionalOffer(bundleId: String, productId: String, _ offerIdentifier: String) async throws {
        guard let ledger = state.ledger else { return }
        try await ledger.appliedOffers.check(
            bundleId: bundleId, productId: productId, offerIdentifier: offerIdentifier, field: "offerIdentifier",
            logger: logger)
    }

    /// Checks that the API key may act for the app `bundleId` and that the service serves it.
    ///
    /// - Parameters:
    ///   - bundleId: the app's bundle ID, as the request names it.
    ///   - field: the request member that names the app, for the problem (`bundleId`,
    ///     `campaign.app.bundleId`, or the campaign's name when the ledger names the app).
    ///   - campaign: the campaign through which the request reaches the app, named in the messages.
    /// - Throws: a 403 `forbidden` when the key is limited to other bundle IDs, whether or not the
    ///   service serves this one (the answer says which the key may use, and is the same either way);
    ///   then a 404 `unknown-app` when no configured app has the bundle ID.
    public func authorize(bundleId: String, field: String, campaign: String? = nil) throws(ServiceProblem) {
        if let apiKey, let allowed = apiKey.bundleIds, !allowed.contains(bundleId) {
            let through = campaign.map { "campaign \($0), whose app is " } ?? ""
            throw ServiceProblem(
                .forbidden,
                detail: "API key '\(apiKey.name)' may not use \(through)bundle ID \(bundleId): it is limited to "
                    + allowed.sorted().joined(separator: ", "), field: field)
        }
        guard state.apps.signer(for: bundleId) != nil else {
            let owner = campaign.map { "campaign \($0) belongs to " } ?? ""
            throw ServiceProblem(
                .unknownApp, detail: "\(owner)bundle ID \(bundleId) is not configured in this service", field: field)
        }
    }

    /// Checks that the API key may act for every app: the operation acts for the whole team or
    /// reports on every app (``BundleLimit/everyApp``).
    /// - Parameters:
    ///   - reason: why the operation concerns every app, for the message.
    ///   - action: what only a key for every app may do, for the message.
    /// - Throws: a 403 `forbidden` for a key limited to some bundle IDs.
    func authorizeEveryApp(because reason: String, action: String) throws(ServiceProblem) {
        guard let apiKey, apiKey.bundleIds != nil else { return }
        throw ServiceProblem(
            .forbidden,
            detail: "API key '\(apiKey.name)' is limited to some bundle IDs, and \(reason): only a key for every app "
                + "(bundleIds [\"*\"]) may \(action)")
    }

    /// This request with `body` as its body: a batch runs each item's operation on it.
    func replacingBody(_ body: JSONValue) -> OperationRequest {
        OperationRequest(
            body: body, rawBody: nil, parameters: parameters, query: query, headers: headers, apiKey: apiKey,
            state: state, logger: logger, requestId: requestId, annotate: annotate)
    }

    /// The service's code ledger.
    /// - Throws: a `not-found` problem when the service has none (its operations are then not routed).
    func ledger() throws(ServiceProblem) -> ServiceLedger {
        guard let ledger = state.ledger else {
            throw ServiceProblem(
                .notFound, detail: "this service keeps no code ledger; the API is described at /openapi.json")
        }
        return ledger
    }
}
