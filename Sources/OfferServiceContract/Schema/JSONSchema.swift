import OfferJSON
import OfferSigning

/// A JSON Schema (the 2020-12 dialect that OpenAPI 3.1 uses), kept as a Swift value.
///
/// The service validates every request body against the schema of its model before decoding it,
/// and the OpenAPI document is written from the same values, so the document cannot drift from
/// what the service accepts.
public struct JSONSchema: Sendable {
    /// What a value must be.
    public indirect enum Kind: Sendable {
        /// A string, with the rules in ``StringRules``.
        case string(StringRules)
        /// An integer within optional bounds.
        case integer(minimum: Int64?, maximum: Int64?)
        /// `true` or `false`.
        case boolean
        /// An object with the given properties; any other member is refused unless
        /// `additionalProperties` is set (then every extra member must match it).
        case object([Property], additionalProperties: JSONSchema?)
        /// An array whose elements all match `items`.
        case array(items: JSONSchema, minItems: Int?, maxItems: Int?)
        /// Exactly one of several schemas, chosen by the string member `discriminator`.
        case oneOf([JSONSchema], discriminator: String)
        /// Any of several schemas (JSON Schema's `anyOf`): a value is accepted when one of them
        /// accepts it, such as a batch item's `id`, a string or an integer.
        case anyOf([JSONSchema])
        /// A named schema, written once under `components/schemas` and referenced by `$ref`.
        case component(name: String, schema: JSONSchema)
        /// Any JSON value.
        case any
    }

    /// One member of an object schema.
    public struct Property: Sendable {
        public var name: String
        public var schema: JSONSchema
        public var required: Bool

        public init(_ name: String, _ schema: JSONSchema, required: Bool = true) {
            self.name = name
            self.schema = schema
            self.required = required
        }
    }

    public var kind: Kind
    public var description: String?
    /// An example value, written to the document as `examples: [value]`.
    package var example: JSONValue?
    /// Whether `null` is accepted as well as the kind's values (written as `type: [<type>, "null"]`).
    /// Only for kinds with a `type`: strings, integers, booleans, objects and arrays.
    package var nullable = false

    /// A schema of `kind`.
    public init(_ kind: Kind, description: String? = nil) {
        self.kind = kind
        self.description = description
        self.example = nil
    }

    package init(_ kind: Kind, description: String? = nil, example: JSONValue?) {
        self.kind = kind
        self.description = description
        self.example = example
    }
}

extension JSONSchema {
    /// A string schema.
    public static func string(
        _ rules: StringRules = StringRules(), description: String? = nil, example: String? = nil
    ) -> JSONSchema {
        JSONSchema(.string(rules), description: description, example: example.map { .string($0) })
    }

    /// A string that must be one of `values`.
    public static func enumeration(_ values: [String], description: String? = nil) -> JSONSchema {
        JSONSchema(
            .string(StringRules(allowed: values)), description: description, example: values.first.map { .string($0) })
    }

    /// An integer schema.
    public static func integer(
        minimum: Int64? = nil, maximum: Int64? = nil, description: String? = nil, example: Int64? = nil
    ) -> JSONSchema {
        JSONSchema(
            .integer(minimum: minimum, maximum: maximum), description: description,
            example: example.map { .number(String($0)) })
    }

    /// A boolean schema.
    public static func boolean(description: String? = nil, example: Bool? = nil) -> JSONSchema {
        JSONSchema(.boolean, description: description, example: example.map { .bool($0) })
    }

    /// An object schema that refuses members it does not list.
    public static func object(_ properties: [Property], description: String? = nil) -> JSONSchema {
        JSONSchema(.object(properties, additionalProperties: nil), description: description)
    }

    /// An array schema.
    public static func array(
        of items: JSONSchema, minItems: Int? = nil, maxItems: Int? = nil, description: String? = nil
    ) -> JSONSchema {
        JSONSchema(.array(items: items, minItems: minItems, maxItems: maxItems), description: description)
    }

    /// This schema as the named component `name`.
    public func named(_ name: String) -> JSONSchema {
        JSONSchema(.component(name: name, schema: self))
    }

    /// This schema, also accepting `null` (a value that may be missing, such as an expiration date).
    package func orNull() -> JSONSchema {
        var copy = self
        copy.nullable = true
        return copy
    }

    /// This schema with `example` as its example.
    package func example(_ value: JSONValue) -> JSONSchema {
        var copy = self
        copy.example = value
        return copy
    }

    /// The schema behind any component references.
    package var resolved: JSONSchema {
        if case .component(_, let schema) = kind { return schema.resolved }
        return self
    }

    /// The component name when this schema is a named component.
    public var componentName: String? {
        if case .component(let name, _) = kind { return name }
        return nil
    }
}
