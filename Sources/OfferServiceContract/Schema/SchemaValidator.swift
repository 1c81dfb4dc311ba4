import OfferJSON
import OfferSigning

/// Checks a JSON value against a ``JSONSchema``: the first field at fault, or every one.
///
/// An enumeration (``StringRules/allowed``) is matched in any case, as every reader of input
/// matches enumerated values (`EnumeratedValue`): `sandbox`, `Sandbox` and `SANDBOX` are the
/// value the schema lists as `SANDBOX`, and the validated JSON carries that spelling.
public struct SchemaValidator: Sendable {
    public init() {}

    /// - Throws: ``SchemaViolation`` naming the first field that does not match.
    package func validate(_ value: JSONValue, against schema: JSONSchema) throws(SchemaViolation) {
        var sink = Sink.firstOnly
        _ = try check(value, schema, path: "", &sink)
    }

    /// Checks `value` and returns it with every integer written in its plain form and every
    /// enumerated string in the schema's spelling: JSON Schema counts `6.0` and `6e0` as the integer
    /// 6, and everything after validation (the handlers, the signing library's decoders) then sees
    /// `6`; a schema listing `SANDBOX` takes `sandbox`, and the handlers see `SANDBOX`.
    /// - Throws: ``SchemaViolation`` naming the first field that does not match.
    package func validated(_ value: JSONValue, against schema: JSONSchema) throws(SchemaViolation) -> JSONValue {
        var sink = Sink.firstOnly
        return try check(value, schema, path: "", &sink)
    }

    /// Every field of `value` that does not match `schema`, in document order: none when it matches.
    /// A field at fault is not looked into (an object of the wrong type has no members to check).
    package func violations(_ value: JSONValue, against schema: JSONSchema) -> [SchemaViolation] {
        var sink = Sink.every([])
        do {
            _ = try check(value, schema, path: "", &sink)
        } catch {
            // A sink that collects never throws.
            return [error]
        }
        if case .every(let found) = sink { return found }
        return []
    }

    /// Where violations go: thrown at the first, or collected.
    private enum Sink {
        case firstOnly
        case every([SchemaViolation])

        /// Throws `violation`, or records it when collecting.
        package mutating func report(_ violation: SchemaViolation) throws(SchemaViolation) {
            guard case .every(var found) = self else { throw violation }
            found.append(violation)
            self = .every(found)
        }
    }

    private func check(_ value: JSONValue, _ schema: JSONSchema, path: String, _ sink: inout Sink)
        throws(SchemaViolation) -> JSONValue
    {
        if schema.nullable, case .null = value { return value }
        switch schema.kind {
        case .component(_, let inner):
            return try check(value, inner, path: path, &sink)
        case .any:
            return value
        case .boolean:
            if case .bool = value { return value }
            try sink.report(violation(path, "a boolean (true or false)", value))
            return value
        case .integer(let minimum, let maximum):
            let expected = integerExpectation(minimum, maximum)
            guard case .number(let text) = value else {
                try sink.report(violation(path, expected, value))
                return value
            }
            guard let number = JSONValue.exactInteger(text) else {
                try sink.report(
                    SchemaViolation(
                        field: path.isEmpty ? "(body)" : path, expected: expected, found: value.numberDescription))
                return value
            }
            if let minimum, number < minimum {
                try sink.report(
                    SchemaViolation(
                        field: fieldName(path), expected: expected, found: Self.describe(value),
                        reason: "\(number) is below \(minimum)"))
            } else if let maximum, number > maximum {
                try sink.report(
                    SchemaViolation(
                        field: fieldName(path), expected: expected, found: Self.describe(value),
                        reason: "\(number) is above \(maximum)"))
            }
            return .number(String(number))
        case .string(let rules):
            guard case .string(let text) = value else {
                try sink.report(violation(path, typeExpectation(rules), value))
                return value
            }
            do {
                return .string(try check(text, rules, path: path, value: value))
            } catch {
                try sink.report(error)
                return value
            }
        case .array(let items, let minItems, let maxItems):
            guard case .array(let elements) = value else {
                try sink.report(violation(path, "an array", value))
                return value
            }
            if let minItems, elements.count < minItems {
                try sink.report(
                    violation(path, "an array of at least \(minItems) element\(minItems == 1 ? "" : "s")", value))
                return value
            }
            if let maxItems, elements.count > maxItems {
                try sink.report(violation(path, "an array of at most \(maxItems) elements", value))
                return value
            }
            // Elements of any value (a batch's items, checked one by one later) are taken as they are.
            if case .any = items.kind { return value }
            var checked: [JSONValue] = []
            checked.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                checked.append(try check(element, items, path: "\(path)[\(index)]", &sink))
            }
            return .array(checked)
        case .object(let properties, let additional):
            return try checkObject(value, properties, additional, path: path, &sink)
        case .oneOf(let choices, let discriminator):
            let names = choices.compactMap { Self.discriminatorValue(of: $0, discriminator) }
            let expected = "one of \(names.joined(separator: ", "))"
            guard case .object = value else {
                try sink.report(violation(path, "an object", value))
                return value
            }
            guard let tag = value[discriminator] else {
                try sink.report(SchemaViolation(field: join(path, discriminator), expected: expected, found: "nothing"))
                return value
            }
            // The discriminator is an enumerated value too: matched in any case.
            guard case .string(let name) = tag,
                let choice = choices.first(where: {
                    Self.discriminatorValue(of: $0, discriminator).map {
                        EnumeratedSpelling.equalIgnoringCase($0, name)
                    }
                        ?? false
                })
            else {
                try sink.report(violation(join(path, discriminator), expected, tag, enumerated: true))
                return value
            }
            return try check(value, choice, path: path, &sink)
        case .anyOf(let choices):
            do {
                return try checkAny(value, choices, path: path)
            } catch {
                try sink.report(error)
                return value
            }
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
                var sink = Sink.firstOnly
                return try check(value, choice, path: path, &sink)
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
        _ value: JSONValue, _ properties: [JSONSchema.Property], _ additional: JSONSchema?, path: String,
        _ sink: inout Sink
    ) throws(SchemaViolation) -> JSONValue {
        guard case .object(let members) = value else {
            try sink.report(violation(path, "an object", value))
            return value
        }
        var seen = Set<String>()
        var checked: [(key: String, value: JSONValue)] = []
        checked.reserveCapacity(members.count)
        for member in members {
            guard seen.insert(member.key).inserted else {
                try sink.report(
                    SchemaViolation(field: join(path, member.key), expected: "one member of this name", found: "two"))
                continue
            }
            if let property = properties.first(where: { $0.name == member.key }) {
                checked.append(
                    (member.key, try check(member.value, property.schema, path: join(path, member.key), &sink)))
            } else if let additional {
                checked.append((member.key, try check(member.value, additional, path: join(path, member.key), &sink)))
            } else {
                let known = properties.map(\.name).joined(separator: ", ")
                try sink.report(
                    SchemaViolation(
                        field: join(path, member.key), expected: "no such member (known: \(known))",
                        found: "an unknown member"))
            }
        }
        for property in properties where property.required && !seen.contains(property.name) {
            try sink.report(
                SchemaViolation(
                    field: join(path, property.name), expected: describe(property.schema),
                    found: "nothing (it is required)"))
        }
        return .object(checked)
    }

    /// `text` checked against `rules`; an enumerated value comes back in the schema's spelling.
    private func check(_ text: String, _ rules: StringRules, path: String, value: JSONValue) throws(SchemaViolation)
        -> String
    {
        if let allowed = rules.allowed {
            guard let spelling = EnumeratedSpelling.canonical(text, among: allowed) else {
                throw violation(path, enumerationExpectation(allowed), value, enumerated: true)
            }
            return spelling
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
        return text
    }

    /// `one of A, B (in any case)`.
    private func enumerationExpectation(_ allowed: [String]) -> String {
        "one of \(allowed.joined(separator: ", ")) (in any case)"
    }

    /// What a string schema expects, for a value that is not a string at all: `a string`, or the
    /// allowed values of an enumeration.
    private func typeExpectation(_ rules: StringRules) -> String {
        if let allowed = rules.allowed { return enumerationExpectation(allowed) }
        return "a string"
    }

    private func fieldName(_ path: String) -> String { path.isEmpty ? "(body)" : path }

    private func expectation(_ rules: StringRules) -> String {
        if let allowed = rules.allowed { return enumerationExpectation(allowed) }
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
    package static func discriminatorValue(of choice: JSONSchema, _ discriminator: String) -> String? {
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

    /// A violation at `path`; `enumerated`: the field takes one of a few names, and a string found
    /// there is shown (bounded, control characters escaped: ``EnumeratedSpelling/shown(_:)``).
    private func violation(_ path: String, _ expected: String, _ value: JSONValue, enumerated: Bool = false)
        -> SchemaViolation
    {
        let found: String
        if enumerated, case .string(let text) = value {
            found = EnumeratedSpelling.shown(text)
        } else {
            found = Self.describe(value)
        }
        return SchemaViolation(field: path.isEmpty ? "(body)" : path, expected: expected, found: found)
    }

    /// What was found, with a number's or boolean's value or a string's or array's size:
    /// `the number 3601`, `the boolean true`, `a string of 300 characters`, `an array of 12
    /// elements`, `an object`, `null`. A string is not echoed here: it could be anything the client
    /// put in the wrong field (only where a field takes one of a few names is it shown, bounded).
    package static func describe(_ value: JSONValue) -> String {
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
