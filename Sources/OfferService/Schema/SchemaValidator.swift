import OfferJSON
import OfferSigning

/// Checks a JSON value against a ``JSONSchema`` and reports the first field at fault.
public struct SchemaValidator: Sendable {
    public init() {}

    /// - Throws: ``SchemaViolation`` naming the first field that does not match.
    package func validate(_ value: JSONValue, against schema: JSONSchema) throws(SchemaViolation) {
        _ = try check(value, schema, path: "")
    }

    /// Checks `value` and returns it with every integer written in its plain form: JSON Schema
    /// counts `6.0` and `6e0` as the integer 6, and everything after validation (the handlers,
    /// the signing library's decoders) then sees `6`.
    /// - Throws: ``SchemaViolation`` naming the first field that does not match.
    package func validated(_ value: JSONValue, against schema: JSONSchema) throws(SchemaViolation) -> JSONValue {
        try check(value, schema, path: "")
    }

    private func check(_ value: JSONValue, _ schema: JSONSchema, path: String) throws(SchemaViolation) -> JSONValue {
        if schema.nullable, case .null = value { return value }
        switch schema.kind {
        case .component(_, let inner):
            return try check(value, inner, path: path)
        case .any:
            return value
        case .boolean:
            guard case .bool = value else { throw violation(path, "a boolean (true or false)", value) }
            return value
        case .integer(let minimum, let maximum):
            let expected = integerExpectation(minimum, maximum)
            guard case .number(let text) = value else { throw violation(path, expected, value) }
            guard let number = JSONValue.exactInteger(text) else {
                throw SchemaViolation(
                    field: path.isEmpty ? "(body)" : path, expected: expected, found: value.numberDescription)
            }
            if let minimum, number < minimum {
                throw SchemaViolation(
                    field: fieldName(path), expected: expected, found: Self.describe(value),
                    reason: "\(number) is below \(minimum)")
            }
            if let maximum, number > maximum {
                throw SchemaViolation(
                    field: fieldName(path), expected: expected, found: Self.describe(value),
                    reason: "\(number) is above \(maximum)")
            }
            return .number(String(number))
        case .string(let rules):
            guard case .string(let text) = value else { throw violation(path, typeExpectation(rules), value) }
            try check(text, rules, path: path, value: value)
            return value
        case .array(let items, let minItems, let maxItems):
            guard case .array(let elements) = value else { throw violation(path, "an array", value) }
            if let minItems, elements.count < minItems {
                throw violation(path, "an array of at least \(minItems) element\(minItems == 1 ? "" : "s")", value)
            }
            if let maxItems, elements.count > maxItems {
                throw violation(path, "an array of at most \(maxItems) elements", value)
            }
            // Elements of any value (a batch's items, checked one by one later) are taken as they are.
            if case .any = items.kind { return value }
            var checked: [JSONValue] = []
            checked.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                checked.append(try check(element, items, path: "\(path)[\(index)]"))
            }
            return .array(checked)
        case .object(let properties, let additional):
            return try checkObject(value, properties, additional, path: path)
        case .oneOf(let choices, let discriminator):
            let names = choices.compactMap { Self.discriminatorValue(of: $0, discriminator) }
            let expected = "one of \(names.joined(separator: ", "))"
            guard case .object = value else { throw violation(path, "an object", value) }
            guard let tag = value[discriminator] else {
                throw SchemaViolation(field: join(path, discriminator), expected: expected, found: "nothing")
            }
            guard case .string(let name) = tag,
                let choice = choices.first(where: { Self.discriminatorValue(of: $0, discriminator) == name })
            else { throw violation(join(path, discriminator), expected, tag) }
            return try check(value, choice, path: path)
        case .anyOf(let choices):
            return try checkAny(value, choices, path: path)
        }
    }

    /// `value` checked against the first of `choices` that accepts it. When none does, the
    /// violation of the first choice of the value's own JSON type says why (`id: at most 256
    /// characters`); a value of no choice's type is expected to be any of them (`a string or an
    /// integer`).
    private func checkAny(_ value: JSONValue, _ choices: [JSONSchema], path: String) throws(SchemaViolation)
        -> JSONValue
    {
        var first: SchemaViolation?
        for choice in choices {
            do {
                return try check(value, choice, path: path)
            } catch {
                if first == nil, Self.hasType(of: value, choice) { first = error }
            }
        }
        throw first ?? violation(path, choices.map { describe($0) }.joined(separator: " or "), value)
    }

    /// Whether `schema` takes values of `value`'s JSON type (a number for an integer schema).
    private static func hasType(of value: JSONValue, _ schema: JSONSchema) -> Bool {
        switch (value, schema.resolved.kind) {
        case (_, .any): true
        case (.string, .string), (.number, .integer), (.bool, .boolean), (.array, .array): true
        case (.object, .object), (.object, .oneOf): true
        case (_, .anyOf(let choices)): choices.contains { hasType(of: value, $0) }
        default: false
        }
    }

    private func checkObject(
        _ value: JSONValue, _ properties: [JSONSchema.Property], _ additional: JSONSchema?, path: String
    ) throws(SchemaViolation) -> JSONValue {
        guard case .object(let members) = value else { throw violation(path, "an object", value) }
        var seen = Set<String>()
        var checked: [(key: String, value: JSONValue)] = []
        checked.reserveCapacity(members.count)
        for member in members {
            guard seen.insert(member.key).inserted else {
                throw SchemaViolation(field: join(path, member.key), expected: "one member of this name", found: "two")
            }
            if let property = properties.first(where: { $0.name == member.key }) {
                checked.append((member.key, try check(member.value, property.schema, path: join(path, member.key))))
            } else if let additional {
                checked.append((member.key, try check(member.value, additional, path: join(path, member.key))))
            } else {
                let known = properties.map(\.name).joined(separator: ", ")
                throw SchemaViolation(
                    field: join(path, member.key), expected: "no such member (known: \(known))",
                    found: "an unknown member")
            }
        }
        for property in properties where property.required && !seen.contains(property.name) {
            throw SchemaViolation(
                field: join(path, property.name), expected: describe(property.schema), found: "nothing (it is required)"
            )
        }
        return .object(checked)
    }

    private func check(_ text: String, _ rules: StringRules, path: String, value: JSONValue) throws(SchemaViolation) {
        if let allowed = rules.allowed, !allowed.contains(text) {
            throw violation(path, "one of \(allowed.joined(separator: ", "))", value)
        }
        if let minLength = rules.minLength, text.unicodeScalars.count < minLength {
            throw violation(path, minLength == 1 ? "a non-empty string" : "at least \(minLength) characters", value)
        }
        if let maxLength = rules.maxLength, text.unicodeScalars.count > maxLength {
            throw violation(path, "at most \(maxLength) characters", value)
        }
        if let format = rules.format, !format.matches(text) {
            throw violation(path, format.expected, value)
        }
    }

    /// What a string schema expects, for a value that is not a string at all: `a string`, or the
    /// allowed values of an enumeration.
    private func typeExpectation(_ rules: StringRules) -> String {
        if let allowed = rules.allowed { return "one of \(allowed.joined(separator: ", "))" }
        return "a string"
    }

    private func fieldName(_ path: String) -> String { path.isEmpty ? "(body)" : path }

    private func expectation(_ rules: StringRules) -> String {
        if let allowed = rules.allowed { return "one of \(allowed.joined(separator: ", "))" }
        return rules.format.map { $0.expected } ?? "a string"
    }

    private func integerExpectation(_ minimum: Int64?, _ maximum: Int64?) -> String {
        switch (minimum, maximum) {
        case (let minimum?, let maximum?): "an integer from \(minimum) to \(maximum)"
        case (let minimum?, nil): "an integer ≥ \(minimum)"
        case (nil, let maximum?): "an integer ≤ \(maximum)"
        case (nil, nil): "an integer"
        }
    }

    /// A short description of what a schema accepts, for "required" messages.
    private func describe(_ schema: JSONSchema) -> String {
        let expected =
            switch schema.resolved.kind {
            case .string(let rules): expectation(rules)
            case .integer(let minimum, let maximum): integerExpectation(minimum, maximum)
            case .boolean: "a boolean"
            case .object, .oneOf: "an object"
            case .array: "an array"
            case .anyOf(let choices): choices.map { describe($0) }.joined(separator: " or ")
            case .any, .component: "a value"
            }
        return schema.nullable ? expected + " or null" : expected
    }

    /// The value a `oneOf` choice requires for the discriminator member.
    static func discriminatorValue(of choice: JSONSchema, _ discriminator: String) -> String? {
        guard case .object(let properties, _) = choice.resolved.kind,
            let property = properties.first(where: { $0.name == discriminator }),
            case .string(let rules) = property.schema.resolved.kind, let allowed = rules.allowed, allowed.count == 1
        else { return nil }
        return allowed[0]
    }

    /// `path.key`, or `path["key"]` (JSON-quoted) for a key that is empty or holds characters that
    /// would make the path ambiguous.
    private func join(_ path: String, _ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
        if plain { return path.isEmpty ? key : "\(path).\(key)" }
        var quoted: [UInt8] = []
        JSONWriter.appendQuoted(key, to: &quoted)
        return "\(path)[\(String(decoding: quoted, as: UTF8.self))]"
    }

    private func violation(_ path: String, _ expected: String, _ value: JSONValue) -> SchemaViolation {
        SchemaViolation(field: path.isEmpty ? "(body)" : path, expected: expected, found: Self.describe(value))
    }

    /// What was found, with a number's or boolean's value or a string's or array's size:
    /// `the number 3601`, `the boolean true`, `a string of 300 characters`, `an array of 12
    /// elements`, `an object`, `null`. A string is never echoed: it could be anything the client
    /// put in the wrong field.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .number(let text):
            return "the number " + (text.count > 24 ? String(text.prefix(24)) + "…" : text)
        case .bool(let flag):
            return "the boolean \(flag)"
        case .string(let text):
            // Counted as the length rules count: Unicode scalars.
            let count = text.unicodeScalars.count
            return "a string of \(count) character\(count == 1 ? "" : "s")"
        case .array(let elements):
            return "an array of \(elements.count) element\(elements.count == 1 ? "" : "s")"
        case .object, .null:
            return value.typeName
        }
    }
}
