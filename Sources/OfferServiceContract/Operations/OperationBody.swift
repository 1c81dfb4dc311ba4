import OfferJSON
import OfferSigning

/// An operation's request body as a typed value, built from the JSON its ``schema`` has checked.
///
/// A body type declares each member once, as a ``BodyMember`` (name, schema, how its value is
/// read), builds its schema from those members and reads its values through them: the schema and
/// the handler cannot disagree about a member's name, and a member read with the wrong shape is a
/// 500 problem for that request, not a crash.
package protocol OperationBody: Sendable {
    /// The body's schema (a named component), made of the body's ``BodyMember``s.
    static var schema: JSONSchema { get }

    /// The typed body from JSON that passed ``schema``.
    /// - Throws: a ``ServiceProblem`` for a value the schema cannot express (a date that does not
    ///   exist), or an `internal-error` one if the JSON does not have the shape of a member.
    init(validated body: ValidatedBody) throws(ServiceProblem)
}

/// JSON that passed a schema, read through ``BodyMember``s.
package struct ValidatedBody: Sendable {
    package let json: JSONValue
    /// Where `json` is in the request body (`customCodes[0]`); empty for the body itself.
    package let path: String

    package init(_ json: JSONValue, path: String = "") {
        self.json = json
        self.path = path
    }

    /// The value of `member`.
    /// - Throws: an `internal-error` problem when the value does not have the member's shape,
    ///   which the schema should have refused.
    package func callAsFunction<Value>(_ member: BodyMember<Value>) throws(ServiceProblem) -> Value {
        guard let value = member.read(json[member.name]) else {
            let field = path.isEmpty ? member.name : "\(path).\(member.name)"
            throw ServiceProblem(
                .internalError,
                detail: "the service's schema and its reading of the body member \(field) disagree; please report it")
        }
        return value
    }
}

/// One member of a request body: its schema property and how its checked value is read.
package struct BodyMember<Value: Sendable>: Sendable {
    /// The member in the body's schema.
    package let property: JSONSchema.Property
    /// The value from the member's JSON (`nil` when absent); `nil` when it has the wrong shape.
    package let read: @Sendable (JSONValue?) -> Value?

    package var name: String { property.name }
}

extension BodyMember {
    /// A member the body must have.
    package static func required(_ name: String, _ schema: JSONSchema, _ reader: BodyReader<Value>) -> BodyMember {
        BodyMember(property: .init(name, schema)) { json in json.flatMap(reader.read) }
    }

    /// A member the body may leave out (`nil` then).
    package static func optional<Wrapped>(_ name: String, _ schema: JSONSchema, _ reader: BodyReader<Wrapped>)
        -> BodyMember
    where Value == Wrapped? {
        BodyMember(property: .init(name, schema, required: false)) { json in
            guard let json else { return .some(nil) }
            return reader.read(json).map { .some($0) }
        }
    }
}

/// How a member's JSON becomes a Swift value.
package struct BodyReader<Value: Sendable>: Sendable {
    package let read: @Sendable (JSONValue) -> Value?
}

extension BodyReader<String> {
    package static var string: Self { Self { if case .string(let text) = $0 { text } else { nil } } }
}

extension BodyReader<Bool> {
    package static var bool: Self { Self { if case .bool(let flag) = $0 { flag } else { nil } } }
}

extension BodyReader<Int64> {
    /// An integer (the schema has written it in its plain form).
    package static var integer: Self { Self { $0.exactInteger } }
}

extension BodyReader<[String]> {
    package static var strings: Self {
        Self { json in
            guard case .array(let elements) = json else { return nil }
            var texts: [String] = []
            for element in elements {
                guard case .string(let text) = element else { return nil }
                texts.append(text)
            }
            return texts
        }
    }
}

extension BodyReader where Value: EnumeratedValue {
    /// One of an enumeration's values, read by ``EnumeratedValue`` (in any case; the schema has
    /// already written it in its spelling).
    package static var enumerated: Self {
        Self { if case .string(let text) = $0 { Value(anyCase: text) } else { nil } }
    }
}

extension BodyReader<JSONValue> {
    /// The JSON as it is, for members that a library reads (a campaign, an in-app request).
    package static var json: Self { Self { $0 } }
}

extension BodyReader<[JSONValue]> {
    /// An array's elements as they are, for a list of nested bodies.
    package static var elements: Self { Self { if case .array(let elements) = $0 { elements } else { nil } } }
}
