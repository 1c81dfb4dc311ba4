import HTTPTypes
import OfferSigning

/// One operation of the service as its clients see it: its route, its documentation, the schemas
/// its requests are checked against and the problems it answers with; no handler.
///
/// The OpenAPI document (``OpenAPIDocument``) and the code snippets are built from
/// ``OperationContract/all``; the service (module OfferService) pairs each contract with its
/// handler in `OperationContract` and routes and validates with the contract, so every route is
/// documented with the schemas that its requests are checked against.
public struct OperationContract: Sendable {
    /// The OpenAPI `operationId`, such as `signPromotionalOffer`.
    public var id: String
    public var method: HTTPRequest.Method
    public var path: String
    /// The OpenAPI tag that groups it.
    public var tag: String
    public var summary: String
    public var description: String
    /// The scope an API key needs; `nil` for public endpoints (health, the document itself) and
    /// for operations that authorize per item (``authorizesPerItem``).
    public var scope: OperationScope?
    /// What the API key's bundle-ID limit is checked against: the app the operation acts for
    /// (``BundleLimit``). `none` for operations without an API key.
    public var bundleLimit: BundleLimit = .none
    /// Whether each item of the body needs its own scope (`signBatch`): the request needs a known
    /// API key (401 otherwise) but no scope of its own, and its handler checks each item's scope
    /// and takes the rate limit's tokens, one per item, once the body is read. ``scope`` is `nil`.
    public var authorizesPerItem = false
    /// The parameters in ``path`` (`{name}`), each a string checked against its schema before
    /// the handler runs (percent-decoded first); the handler reads them from
    /// `OperationRequest.parameters`.
    public var pathParameters: [JSONSchema.Property] = []
    /// The request body's schema (a named component), if the operation takes a body.
    public var requestSchema: JSONSchema?
    /// When set, the body is checked against this schema before the handler runs instead of
    /// ``requestSchema``, which then only documents it: a batch's envelope is checked whole, its
    /// items one by one by the handler, so that one bad item does not refuse the others.
    public var envelopeSchema: JSONSchema?
    /// The successful response: its status and schema (a named component).
    public var responseStatus: Int
    public var responseSchema: JSONSchema
    /// The media type of the successful response.
    public var responseMediaType: String
    /// Problems specific to this operation. The document adds the ones every operation can
    /// return (auth, limits, internal errors) from ``documentedProblems``.
    public var problems: [ProblemType]
    /// Whether the operation can run long (campaign validation and planning): its body is read,
    /// checked and handled, and its answer encoded, on the service's worker threads, and its
    /// timeout counts from the moment the request is routed. Short operations (signatures,
    /// tokens) run on Swift's global executor, which `offerkit serve` puts on NIO's event loops;
    /// that is where the worker threads keep long work away from the connections.
    public var runsLong: Bool
    /// Whether the operation has no body and answers at once from what the service holds (health,
    /// readiness, metrics, the OpenAPI document): it runs in the request's own task, without the
    /// task and timer of the request timeout, which nothing in it waits for.
    public var answersFromMemory: Bool = false
    /// Whether the handler only computes from the request (signatures, tokens): nothing in it
    /// waits, and it takes microseconds. Served by `ServiceRunner`, whose connections time the
    /// body themselves, it runs in the request's own task, without the request timeout's task and
    /// timer; elsewhere (a router in an application of your own) it runs as the others do.
    public var computesOnly: Bool = false
    /// Whether the operation is an old path kept for existing clients (`deprecated: true` in the
    /// OpenAPI document); its description names the path that replaces it.
    public var deprecated: Bool = false
    /// Whether only a service with a code ledger has the operation (`ServiceState.ledger`):
    /// without one it is not routed (404) and not in the service's own OpenAPI document. The
    /// committed document describes it, marked `x-offerkit-requires-ledger: true`.
    public var requiresLedger: Bool = false
    /// Whether only a service with a Get Retention Message endpoint (`ServiceConfiguration.retention`)
    /// has the operation, at the path its configuration gives; the committed document describes it at
    /// the default path, marked `x-offerkit-requires-retention: true`.
    public var requiresRetention: Bool = false
    /// When set, the handler gets the body as it came (`OperationRequest.rawBody`), at most this
    /// many bytes (413 beyond), whatever its media type: no JSON or schema check; ``requestSchema``
    /// only documents it. For the Get Retention Message endpoint, whose caller is Apple.
    public var rawBodyLimit: Int?

    public init(
        id: String, method: HTTPRequest.Method, path: String, tag: String, summary: String, description: String,
        scope: OperationScope?, pathParameters: [JSONSchema.Property] = [], requestSchema: JSONSchema?,
        responseStatus: Int = 200, responseSchema: JSONSchema, responseMediaType: String = "application/json",
        problems: [ProblemType], runsLong: Bool = false, requiresLedger: Bool = false
    ) {
        self.id = id
        self.method = method
        self.path = path
        self.tag = tag
        self.summary = summary
        self.description = description
        self.scope = scope
        self.requestSchema = requestSchema
        self.responseStatus = responseStatus
        self.responseSchema = responseSchema
        self.responseMediaType = responseMediaType
        self.problems = problems
        self.runsLong = runsLong
        self.requiresLedger = requiresLedger
        self.pathParameters = pathParameters
    }

    /// An operation whose body is a typed ``OperationBody`` value, built from the JSON that passed
    /// `Body.schema` (the operation's request schema); its handler gets the value.
    package init<Body: OperationBody>(
        id: String, method: HTTPRequest.Method = .post, path: String, tag: String, summary: String,
        description: String, scope: OperationScope?, body: Body.Type, responseStatus: Int = 200,
        responseSchema: JSONSchema, problems: [ProblemType], runsLong: Bool = false, requiresLedger: Bool = false
    ) {
        self.init(
            id: id, method: method, path: path, tag: tag, summary: summary, description: description, scope: scope,
            requestSchema: Body.schema, responseStatus: responseStatus, responseSchema: responseSchema,
            problems: problems, runsLong: runsLong, requiresLedger: requiresLedger)
    }

    /// This operation also served at `oldPath`, its earlier path, as operation `id`: the same
    /// handler, marked deprecated in the OpenAPI document.
    package func deprecatedAlias(id: String, path oldPath: String) -> OperationContract {
        var alias = self
        alias.id = id
        alias.path = oldPath
        alias.deprecated = true
        alias.summary += " (deprecated path)"
        alias.description =
            "Deprecated: use `\(method.rawValue) \(path)`, which takes and answers the same. " + description
        return alias
    }

    /// Every problem this operation can answer with, in status order.
    public var documentedProblems: [ProblemType] {
        var types = problems
        if rawBodyLimit != nil {
            types += [.badRequest, .bodyTimeout, .bodyTooLarge]
        } else if requestSchema != nil {
            types += [.badRequest, .malformedJSON, .invalidField, .bodyTimeout, .bodyTooLarge, .unsupportedMediaType]
        }
        if scope != nil {
            types += [.unauthorized, .forbidden, .rateLimited]
        } else if authorizesPerItem {
            // A missing scope is a 403 of its item, inside the 200 answer.
            types += [.unauthorized, .rateLimited]
        }
        // An operation that answers from memory runs without the request timeout's task in every
        // router (OfferService.makeRouter): it cannot answer `timeout`.
        if !answersFromMemory { types.append(.timeout) }
        types.append(.internalError)
        var seen = Set<String>()
        return types.filter { seen.insert($0.slug).inserted }.sorted { ($0.status, $0.slug) < ($1.status, $1.slug) }
    }

    /// This operation, marked ``computesOnly``.
    package func computingOnly() -> OperationContract {
        var operation = self
        operation.computesOnly = true
        return operation
    }

    /// This operation, its API key's bundle-ID limit checked against `limit`.
    package func limitingBundles(to limit: BundleLimit) -> OperationContract {
        var operation = self
        operation.bundleLimit = limit
        return operation
    }

    /// This operation, marked ``answersFromMemory``.
    package func answeringFromMemory() -> OperationContract {
        var operation = self
        operation.answersFromMemory = true
        return operation
    }
}
