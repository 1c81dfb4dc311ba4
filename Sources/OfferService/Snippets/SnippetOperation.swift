/// What a snippet does: one signing operation or token of the service, named like the API key
/// scope it needs (`promotional-offer`, `legacy-promotional-offer`, …, `connect-api-token`).
///
/// The list comes from the service's own operations: every one that signs or makes a token has a
/// snippet, so a new signing operation cannot go without one (a test renders them all).
public struct SnippetOperation: RawRepresentable, Hashable, Sendable, CaseIterable {
    /// The API key scope the call needs.
    public let scope: OperationScope

    /// The name on the command line and in template file names: the scope's name.
    public var rawValue: String { scope.rawValue }

    public init?(rawValue: String) {
        guard let operation = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = operation
    }

    private init(scope: OperationScope) {
        self.scope = scope
    }

    /// The service's signing and token operations, in the order of its OpenAPI document.
    public static let allCases: [SnippetOperation] =
        (ServiceOperation.signatureOperations
        + ServiceOperation.tokenOperations).compactMap { $0.scope.map(SnippetOperation.init(scope:)) }

    /// The service operation that the snippet calls (its path and `operationId`).
    var serviceOperation: ServiceOperation {
        guard let operation = ServiceOperation.all.first(where: { $0.scope == scope }) else {
            preconditionFailure("no service operation has the scope \(scope.rawValue)")
        }
        return operation
    }

    /// The template file name for this operation, such as `promotional-offer.mustache`.
    var fileName: String { rawValue + ".mustache" }
}
