import OfferJSON
import OfferSigning

/// Writes ``JSONSchema`` values as JSON Schema 2020-12 objects for the OpenAPI document, and
/// collects every named component it meets, so each is written once under `components/schemas`.
///
/// Keywords come in a fixed order (`type`, `description`, the kind's own keywords, `examples`),
/// so the document's bytes are the same on every run.
package struct OpenAPISchemaWriter {
    /// The components met so far, by name.
    private(set) var components: [String: JSONValue] = [:]
    /// Component names met with two different schemas (a programming error that the tests report).
    private(set) var conflicts: [String] = []
    /// Components being written, so a schema that refers to itself ends in a `$ref`.
    private var inProgress: Set<String> = []

    /// The JSON pointer of the component `name`.
    package static func pointer(_ name: String) -> String { "#/components/schemas/\(name)" }

    /// `schema` as a JSON Schema object: a `$ref` for a named component, the schema itself otherwise.
    package mutating func write(_ schema: JSONSchema) -> JSONValue {
        guard case .component(let name, let inner) = schema.kind else { return body(schema) }
        register(name, inner)
        return .members([
            ("$ref", .string(Self.pointer(name))), ("description", schema.description.map(JSONValue.string)),
            ("examples", schema.example.map { .array([$0]) }),
        ])
    }

    /// The components, sorted by name.
    package var sortedComponents: JSONValue {
        .object(components.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
    }

    private mutating func register(_ name: String, _ schema: JSONSchema) {
        guard !inProgress.contains(name) else { return }
        inProgress.insert(name)
        let value = write(schema)
        inProgress.remove(name)
        if let existing = components[name] {
            if existing != value, !conflicts.contains(name) { conflicts.append(name) }
        } else {
            components[name] = value
        }
    }

    private mutating func body(_ schema: JSONSchema) -> JSONValue {
        var members: [(key: String, value: JSONValue?)]
        switch schema.kind {
        case .string(let rules):
            members = [
                ("type", .string("string")), ("enum", rules.allowed.map { .array($0.map(JSONValue.string)) }),
                ("minLength", rules.minLength.map { .integer($0) }),
                ("maxLength", rules.maxLength.map { .integer($0) }),
                ("format", rules.format?.standardFormat.map(JSONValue.string)),
                ("pattern", rules.format.map { .string($0.pattern) }),
            ]
        case .integer(let minimum, let maximum):
            members = [
                ("type", .string("integer")), ("minimum", minimum.map { .integer($0) }),
                ("maximum", maximum.map { .integer($0) }),
            ]
        case .boolean:
            members = [("type", .string("boolean"))]
        case .object(let properties, let additional):
            let required = properties.filter(\.required).map { JSONValue.string($0.name) }
            members = [
                ("type", .string("object")),
                ("properties", .object(properties.map { (key: $0.name, value: write($0.schema)) })),
                ("required", required.isEmpty ? nil : .array(required)),
                ("additionalProperties", additional.map { write($0) } ?? .bool(false)),
            ]
        case .array(let items, let minItems, let maxItems):
            members = [
                ("type", .string("array")), ("items", write(items)), ("minItems", minItems.map { .integer($0) }),
                ("maxItems", maxItems.map { .integer($0) }),
            ]
        case .oneOf(let choices, let discriminator):
            let mapping: [(key: String, value: JSONValue)] = choices.compactMap { choice in
                guard let name = choice.componentName,
                    let value = SchemaValidator.discriminatorValue(of: choice, discriminator)
                else { return nil }
                return (key: value, value: .string(Self.pointer(name)))
            }
            members = [
                ("oneOf", .array(choices.map { write($0) })),
                (
                    "discriminator",
                    .members([
                        ("propertyName", .string(discriminator)), ("mapping", mapping.isEmpty ? nil : .object(mapping)),
                    ])
                ),
            ]
        case .anyOf(let choices):
            members = [("anyOf", .array(choices.map { write($0) }))]
        case .component:
            return write(schema)
        case .any:
            members = []
        }
        if schema.nullable, members.first?.key == "type", case .string(let type)? = members[0].value {
            members[0].value = .array([.string(type), .string("null")])
            if let index = members.firstIndex(where: { $0.key == "enum" }),
                case .array(let values)? = members[index].value
            {
                members[index].value = .array(values + [.null])
            }
        }
        if let description = schema.description {
            let position = members.first?.key == "type" ? 1 : 0
            members.insert(("description", .string(description)), at: position)
        }
        members.append(("examples", schema.example.map { .array([$0]) }))
        return .members(members)
    }
}
