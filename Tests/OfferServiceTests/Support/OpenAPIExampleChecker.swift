import OfferJSON
import OfferService
import OfferSigning

/// Validates every example of the OpenAPI document with ``SchemaValidator`` against the Swift
/// schema it was written from: walks the document's schemas next to the Swift values (components,
/// request and response media types, the problem responses) and counts what it checked, so a test
/// can compare the count with every example the document holds.
struct OpenAPIExampleChecker {
    let document: JSONValue
    private(set) var checked = 0
    private(set) var failures: [String] = []
    private var components: [String: JSONSchema] = [:]

    init(document: JSONValue) { self.document = document }

    /// Checks the examples of `operations`, their components and the problem responses.
    mutating func checkAll(operations: [ServiceOperation], problem: JSONSchema) {
        for operation in operations {
            collect(operation.requestSchema)
            collect(operation.responseSchema)
        }
        collect(problem)
        for name in components.keys.sorted() {
            walk(document["components"]?["schemas"]?[name], components[name]!, "#/components/schemas/\(name)")
        }
        for operation in operations {
            let pointer = "#/paths/\(operation.path)/\(operation.method.rawValue.lowercased())"
            let item = document["paths"]?[operation.path]?[operation.method.rawValue.lowercased()]
            if let request = operation.requestSchema {
                media(item?["requestBody"]?["content"]?["application/json"], request, "\(pointer)/requestBody")
            }
            for (index, parameter) in operation.pathParameters.enumerated() {
                guard case .array(let written)? = item?["parameters"], index < written.count,
                    written[index]["name"] == .string(parameter.name)
                else {
                    failures.append("\(pointer)/parameters: \(parameter.name) is not parameter \(index)")
                    continue
                }
                // A parameter object holds its schema and its example side by side, as a media type does.
                media(written[index], parameter.schema, "\(pointer)/parameters/\(index)")
            }
            let responses = item?["responses"]
            media(
                responses?[String(operation.responseStatus)]?["content"]?[operation.responseMediaType],
                operation.responseSchema, "\(pointer)/responses/\(operation.responseStatus)")
            for status in Set(operation.documentedProblems.map(\.status)).sorted() {
                media(
                    responses?[String(status)]?["content"]?["application/problem+json"], problem,
                    "\(pointer)/responses/\(status)")
            }
        }
        if case .object(let shared)? = document["components"]?["responses"] {
            for response in shared {
                media(
                    response.value["content"]?["application/problem+json"], problem,
                    "#/components/responses/\(response.key)")
            }
        }
    }

    /// Every example in the document: items of a schema's `examples`, a media type's `example`,
    /// values of a media type's `examples`.
    static func count(in value: JSONValue) -> Int {
        switch value {
        case .object(let members):
            var total = 0
            if case .array(let examples)? = value["examples"] { total += examples.count }
            if value["schema"] != nil, value["example"] != nil { total += 1 }
            if value["schema"] != nil, case .object(let named)? = value["examples"] { total += named.count }
            return total + members.reduce(0) { $0 + count(in: $1.value) }
        case .array(let items):
            return items.reduce(0) { $0 + count(in: $1) }
        default:
            return 0
        }
    }

    private mutating func collect(_ schema: JSONSchema?) {
        guard let schema else { return }
        switch schema.kind {
        case .component(let name, let inner):
            guard components[name] == nil else { return }
            components[name] = inner
            collect(inner)
        case .object(let properties, let additional):
            for property in properties { collect(property.schema) }
            collect(additional)
        case .array(let items, _, _):
            collect(items)
        case .oneOf(let choices, _), .anyOf(let choices):
            for choice in choices { collect(choice) }
        case .string, .integer, .boolean, .any:
            return
        }
    }

    private mutating func media(_ json: JSONValue?, _ schema: JSONSchema, _ pointer: String) {
        guard let json else {
            failures.append("\(pointer): no media type in the document")
            return
        }
        if let example = json["example"] { validate(example, schema, "\(pointer)/example") }
        if case .object(let named)? = json["examples"] {
            for member in named {
                guard let value = member.value["value"] else {
                    failures.append("\(pointer)/examples/\(member.key): no value")
                    continue
                }
                validate(value, schema, "\(pointer)/examples/\(member.key)/value")
            }
        }
        walk(json["schema"], schema, "\(pointer)/schema")
    }

    private mutating func walk(_ json: JSONValue?, _ schema: JSONSchema, _ pointer: String) {
        guard let json else {
            failures.append("\(pointer): missing in the document")
            return
        }
        if case .array(let examples)? = json["examples"] {
            for (index, example) in examples.enumerated() { validate(example, schema, "\(pointer)/examples/\(index)") }
        }
        switch schema.kind {
        case .component:
            return  // a $ref: the component is walked under components/schemas
        case .object(let properties, let additional):
            for property in properties {
                walk(json["properties"]?[property.name], property.schema, "\(pointer)/properties/\(property.name)")
            }
            if let additional { walk(json["additionalProperties"], additional, "\(pointer)/additionalProperties") }
        case .array(let items, _, _):
            walk(json["items"], items, "\(pointer)/items")
        case .oneOf(let choices, _):
            guard case .array(let written)? = json["oneOf"], written.count == choices.count else {
                failures.append("\(pointer): oneOf does not list \(choices.count) choices")
                return
            }
            for (index, choice) in choices.enumerated() { walk(written[index], choice, "\(pointer)/oneOf/\(index)") }
        case .anyOf(let choices):
            guard case .array(let written)? = json["anyOf"], written.count == choices.count else {
                failures.append("\(pointer): anyOf does not list \(choices.count) choices")
                return
            }
            for (index, choice) in choices.enumerated() { walk(written[index], choice, "\(pointer)/anyOf/\(index)") }
        case .string, .integer, .boolean, .any:
            return
        }
    }

    private mutating func validate(_ example: JSONValue, _ schema: JSONSchema, _ pointer: String) {
        checked += 1
        do {
            try SchemaValidator().validate(example, against: schema)
        } catch {
            failures.append("\(pointer): \(error.errorDescription ?? "\(error)")")
        }
    }
}
