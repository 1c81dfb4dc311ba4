import HTTPTypes
import OfferServiceContract

/// One operation of the service: its contract (route, documentation, schemas, problems: an
/// `OperationContract`) and its handler.
///
/// The router is built from `ServiceOperation.all` and the OpenAPI document from the same
/// contracts (`OperationContract.all`), so every route is documented with the schemas that its
/// requests are checked against.
///
/// The contract's members read and write as the operation's own (`operation.path`,
/// `operation.scope`): `@dynamicMemberLookup` forwards them to ``contract``, so that code written
/// when the contract and the handler were one type still compiles.
@dynamicMemberLookup
public struct ServiceOperation: Sendable {
    /// What clients see of the operation: its route, documentation, schemas and problems.
    public var contract: OperationContract
    /// The handler. It runs after authentication, rate limiting and body validation. It throws
    /// `ServiceProblem`s; a signing library `RequestValidationError` it lets through becomes an
    /// `invalid-field` problem naming the field (`ServiceProblem.invalid(_:under:)`).
    public var handler: @Sendable (OperationRequest) async throws -> OperationResponse

    /// The operation `contract` describes, answered by `handler`.
    public init(
        _ contract: OperationContract,
        handler: @escaping @Sendable (OperationRequest) async throws -> OperationResponse
    ) {
        self.contract = contract
        self.handler = handler
    }

    /// An operation described and handled in one place: the contract these members make, answered
    /// by `handler`.
    public init(
        id: String, method: HTTPRequest.Method, path: String, tag: String, summary: String, description: String,
        scope: OperationScope?, pathParameters: [JSONSchema.Property] = [], requestSchema: JSONSchema?,
        responseStatus: Int = 200, responseSchema: JSONSchema, responseMediaType: String = "application/json",
        problems: [ProblemType], runsLong: Bool = false, requiresLedger: Bool = false,
        handler: @escaping @Sendable (OperationRequest) async throws -> OperationResponse
    ) {
        self.init(
            OperationContract(
                id: id, method: method, path: path, tag: tag, summary: summary, description: description,
                scope: scope, pathParameters: pathParameters, requestSchema: requestSchema,
                responseStatus: responseStatus, responseSchema: responseSchema, responseMediaType: responseMediaType,
                problems: problems, runsLong: runsLong, requiresLedger: requiresLedger),
            handler: handler)
    }

    /// The operation `contract` describes, whose handler gets its body as a typed ``OperationBody``
    /// value, built from the JSON that passed `Body.schema` (the contract's request schema).
    init<Body: OperationBody>(
        _ contract: OperationContract, body: Body.Type,
        handler: @escaping @Sendable (Body, OperationRequest) async throws -> OperationResponse
    ) {
        self.init(contract) { request in
            try await handler(try Body(validated: ValidatedBody(request.body ?? .null)), request)
        }
    }

    /// A member of ``contract``, read as the operation's own.
    public subscript<Value>(dynamicMember member: KeyPath<OperationContract, Value>) -> Value {
        contract[keyPath: member]
    }

    /// A member of ``contract``, read and written as the operation's own.
    public subscript<Value>(dynamicMember member: WritableKeyPath<OperationContract, Value>) -> Value {
        get { contract[keyPath: member] }
        set { contract[keyPath: member] = newValue }
    }
}
