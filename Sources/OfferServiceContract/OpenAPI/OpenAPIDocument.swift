import OfferJSON
import OfferSigning

/// The service's OpenAPI 3.1.0 description, built from `OperationContract.all` and
/// ``ProblemType/all``: the routes, the schemas requests are validated against, the problems.
///
/// The document is never kept by hand: `offerkit openapi` prints it, `GET /openapi.json` serves
/// it, and a test checks that the committed `openapi.json` is identical to it. Its members come
/// in a fixed order and components are sorted by name, so the bytes are the same on every run.
///
/// The full document describes every operation, also those only a service with a code ledger
/// has (marked `x-offerkit-requires-ledger: true`), so that clients can be generated from it; a
/// service without a ledger serves the document without them (`includingLedger: false`).
///
/// ```swift
/// let json = OpenAPIDocument.jsonText()   // pretty JSON, ending in a newline
/// ```
///
/// `OpenAPIDocument.yamlText()`, the same document as block-style YAML, is in the module
/// OfferService (it writes with Yams, which this module does not link).
public enum OpenAPIDocument {
    /// The OpenAPI version the document follows.
    public static let openAPIVersion = "3.1.0"

    /// The document as JSON text; pretty (two-space indentation) with a trailing newline, or
    /// compact without one.
    public static func jsonText(pretty: Bool = true, includingLedger: Bool = true) -> String {
        let text = document(includingLedger: includingLedger).text(pretty: pretty)
        return pretty ? text + "\n" : text
    }

    /// The document, built once: with every operation, or without those that need a code ledger.
    package static func document(includingLedger: Bool = true) -> JSONValue {
        includingLedger ? built.document : builtWithoutLedger.document
    }

    /// Component names that two different schemas use (empty unless an operation is wrong).
    package static var componentConflicts: [String] { built.conflicts }

    /// The schema of every problem response (the `Problem` component).
    package static var problemSchema: JSONSchema { ProblemSchemas.problem }

    private static let built = generate()
    private static let builtWithoutLedger = generate(includingLedger: false)

    /// Builds the document afresh (``document(includingLedger:)`` keeps the first build).
    /// - Parameter retentionPath: where the Get Retention Message endpoint is; `nil`: left out. The
    ///   committed document has it at the default path.
    package static func generate(
        includingLedger: Bool = true, retentionPath: String? = RetentionSchemas.defaultPath
    ) -> (document: JSONValue, conflicts: [String]) {
        let operations = OperationContract.all.compactMap { operation -> OperationContract? in
            if operation.requiresLedger, !includingLedger { return nil }
            if operation.requiresRetention {
                return retentionPath.map { OperationContract.getRetentionMessage(path: $0) }
            }
            return operation
        }
        var writer = OpenAPIPaths()
        let paths = writer.paths(operations)
        _ = writer.schemas.write(ProblemSchemas.problem)
        let components = JSONValue.object([
            ("schemas", writer.schemas.sortedComponents), ("responses", writer.sharedResponses()),
            ("headers", OpenAPIHeaders.components), ("securitySchemes", OpenAPIInfo.securitySchemes),
        ])
        let document = JSONValue.object([
            ("openapi", .string(openAPIVersion)), ("info", OpenAPIInfo.info),
            ("servers", .array([.object([("url", .string(OpenAPIInfo.server))])])),
            ("tags", OpenAPIInfo.tags(of: operations)),
            ("paths", paths), ("components", components), ("x-problem-types", OpenAPIInfo.problemTypes),
        ])
        return (document, writer.schemas.conflicts)
    }
}
