import HTTPTypes
import OfferJSON
import OfferSigning

/// Writes the `paths` of the document from ``OperationContract`` values, and the problem
/// responses that do not belong to one operation (`components/responses`).
package struct OpenAPIPaths {
    package var schemas = OpenAPISchemaWriter()

    /// The order of methods within a path.
    private static let methodOrder: [HTTPRequest.Method] = [
        .get, .put, .post, .delete, .options, .head, .patch, .trace,
    ]

    /// `paths`: one item per path, in the order `operations` first use it; methods in HTTP order.
    package mutating func paths(_ operations: [OperationContract]) -> JSONValue {
        var order: [String] = []
        var byPath: [String: [OperationContract]] = [:]
        for operation in operations {
            if byPath[operation.path] == nil { order.append(operation.path) }
            byPath[operation.path, default: []].append(operation)
        }
        return .object(
            order.map { path in
                let sorted = byPath[path, default: []].sorted { Self.rank($0.method) < Self.rank($1.method) }
                return (
                    key: path, value: .object(sorted.map { (key: $0.method.rawValue.lowercased(), value: write($0)) })
                )
            })
    }

    /// `components/responses`: the problems of paths or methods the service does not have.
    package func sharedResponses() -> JSONValue {
        .object([
            ("MethodNotAllowed", problemResponse([.methodNotAllowed], operation: nil)),
            ("NotFound", problemResponse([.notFound], operation: nil)),
        ])
    }

    private static func rank(_ method: HTTPRequest.Method) -> Int {
        methodOrder.firstIndex(of: method) ?? methodOrder.count
    }

    private mutating func write(_ operation: OperationContract) -> JSONValue {
        // An operation that authorizes per item needs a key, and no scope of its own.
        let scopes = operation.scope.map { [JSONValue.string($0.rawValue)] } ?? (operation.authorizesPerItem ? [] : nil)
        let security: JSONValue =
            scopes.map { scopes in .array([.object([(OpenAPIInfo.securitySchemeName, .array(scopes))])]) }
            ?? .array([])
        return .members([
            ("operationId", .string(operation.id)), ("summary", .string(operation.summary)),
            ("description", .string(operation.description)), ("tags", .array([.string(operation.tag)])),
            ("security", security),
            (
                "parameters",
                operation.pathParameters.isEmpty ? nil : .array(operation.pathParameters.map { parameter($0) })
            ),
            ("requestBody", operation.requestSchema.map { requestBody($0) }),
            ("responses", responses(operation)), ("deprecated", operation.deprecated ? .bool(true) : nil),
            (Self.requiresLedgerExtension, operation.requiresLedger ? .bool(true) : nil),
            (Self.requiresRetentionExtension, operation.requiresRetention ? .bool(true) : nil),
        ])
    }

    /// The extension that marks an operation only a service with a code ledger has.
    package static let requiresLedgerExtension = "x-offerkit-requires-ledger"
    /// The extension that marks the operation only a service with a Get Retention Message endpoint has.
    package static let requiresRetentionExtension = "x-offerkit-requires-retention"

    /// A path parameter: its schema (without the example) and its example beside it.
    private mutating func parameter(_ property: JSONSchema.Property) -> JSONValue {
        var schema = property.schema
        let example = schema.example
        schema.example = nil
        let description = schema.description
        schema.description = nil
        return .members([
            ("name", .string(property.name)), ("in", .string("path")),
            ("description", description.map(JSONValue.string)), ("required", .bool(true)),
            ("schema", schemas.write(schema)), ("example", example),
        ])
    }

    private mutating func requestBody(_ schema: JSONSchema) -> JSONValue {
        .members([
            ("description", schema.resolved.description.map(JSONValue.string)), ("required", .bool(true)),
            ("content", .object([("application/json", mediaType(schema))])),
        ])
    }

    private mutating func mediaType(_ schema: JSONSchema) -> JSONValue {
        .members([("schema", schemas.write(schema)), ("example", schema.documentedExample)])
    }

    private mutating func responses(_ operation: OperationContract) -> JSONValue {
        let status = operation.responseStatus
        let success = JSONValue.object([
            (
                "description",
                .string(
                    operation.responseSchema.resolved.description
                        ?? HTTPResponse.Status(code: status).reasonPhrase)
            ),
            ("headers", OpenAPIHeaders.forResponse()),
            ("content", .object([(operation.responseMediaType, mediaType(operation.responseSchema))])),
        ])
        var members: [(key: String, value: JSONValue)] = [(String(status), success)]
        let problems = Dictionary(grouping: operation.documentedProblems, by: \.status)
        for (problemStatus, types) in problems {
            members.append((String(problemStatus), problemResponse(types, operation: operation)))
        }
        return .object(members.sorted { $0.key < $1.key })
    }

    /// One response for problem types that share a status: each type in the description and as a
    /// named example, in the order given.
    private func problemResponse(_ types: [ProblemType], operation: OperationContract?) -> JSONValue {
        let description = types.map { "`\($0.slug)`: \($0.title). \($0.explanation)" }.joined(separator: "\n\n")
        let examples = JSONValue.object(
            types.map { type in
                (
                    key: type.slug,
                    value: .object([("summary", .string(type.title)), ("value", type.example(in: operation))])
                )
            })
        let content = JSONValue.object([
            ("schema", .reference(OpenAPISchemaWriter.pointer(Self.problemComponent))), ("examples", examples),
        ])
        return .object([
            ("description", .string(description)), ("headers", OpenAPIHeaders.forResponse(problems: types)),
            ("content", .object([("application/problem+json", content)])),
        ])
    }

    /// The name of the problem component (from ``ProblemSchemas/problem``).
    package static var problemComponent: String { ProblemSchemas.problem.componentName! }
}
