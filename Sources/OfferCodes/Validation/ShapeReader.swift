import OfferJSON

/// Reads a parsed campaign document leniently: each accessor returns the value when it has the
/// right shape, and otherwise records a problem (`wrong-type`, `missing-member`,
/// `unknown-member`, `invalid-value`, `invalid-date`) and returns `nil`, so that one pass finds
/// every shape problem.
///
/// A member whose value is `null` counts as absent when it is optional.
struct ShapeReader {
    /// The day relative dates (`P90D`) count from.
    let today: CalendarDate
    /// Whether to stop reading (before each offer) when the current task is cancelled.
    var stopsWhenCancelled = false
    /// Every problem found so far, in the order found.
    private(set) var findings: [CampaignFinding] = []

    init(today: CalendarDate) {
        self.today = today
    }

    /// Records a problem.
    mutating func report(_ path: ProblemPath, rule: String, _ message: String, allowed: String?) {
        findings.append(CampaignFinding(path, rule: rule, message, allowed: allowed))
    }

    // MARK: Members

    /// The member's value; `nil` when it is absent or `null` (a problem when `required`).
    mutating func member(_ key: String, of object: ShapeObject, required: Bool, allowed: String) -> JSONValue? {
        guard let value = object[key] else {
            if required {
                report(
                    object.path[key], rule: "missing-member", "\(object.noun) has no \"\(key)\"; add it",
                    allowed: allowed)
            }
            return nil
        }
        if value == .null {
            if required { wrongType(value, at: object.path[key], expected: allowed, kind: .unknown) }
            return nil
        }
        return value
    }

    mutating func string(_ key: String, of object: ShapeObject, required: Bool, allowed: String) -> String? {
        member(key, of: object, required: required, allowed: allowed).flatMap {
            string($0, at: object.path[key], allowed: allowed)
        }
    }

    mutating func integer(_ key: String, of object: ShapeObject, required: Bool, allowed: String) -> Int? {
        member(key, of: object, required: required, allowed: allowed).flatMap {
            integer($0, at: object.path[key], allowed: allowed)
        }
    }

    mutating func bool(_ key: String, of object: ShapeObject, required: Bool, allowed: String) -> Bool? {
        guard let value = member(key, of: object, required: required, allowed: allowed) else { return nil }
        guard case .bool(let flag) = value else {
            wrongType(value, at: object.path[key], expected: allowed, kind: .bool)
            return nil
        }
        return flag
    }

    mutating func array(
        _ key: String, of object: ShapeObject, required: Bool, allowed: String, elements: JSONKind
    ) -> [JSONValue]? {
        member(key, of: object, required: required, allowed: allowed).flatMap {
            array($0, at: object.path[key], allowed: allowed, elements: elements)
        }
    }

    mutating func enumeration<Value: EnumeratedValue>(
        _ key: String, of object: ShapeObject, required: Bool, naming what: String
    ) -> Value? {
        member(key, of: object, required: required, allowed: AllowedText.oneOf(Value.self)).flatMap {
            enumeration($0, at: object.path[key], naming: what)
        }
    }

    mutating func date(_ key: String, of object: ShapeObject, required: Bool) -> CalendarDate? {
        member(key, of: object, required: required, allowed: CampaignDateText.allowed).flatMap {
            date($0, at: object.path[key])
        }
    }

    mutating func object(
        _ key: String, of parent: ShapeObject, required: Bool, noun: String, members: [String], allowed: String
    ) -> ShapeObject? {
        member(key, of: parent, required: required, allowed: allowed).flatMap {
            object($0, at: parent.path[key], noun: noun, members: members, allowed: allowed)
        }
    }

    // MARK: Values

    /// The object, after reporting each member not in `members`.
    mutating func object(
        _ value: JSONValue, at path: ProblemPath, noun: String, members known: [String], allowed: String
    ) -> ShapeObject? {
        guard case .object(let members) = value else {
            wrongType(value, at: path, expected: allowed, kind: .object)
            return nil
        }
        for (key, _) in members where !known.contains(key) {
            let hint = SpellingHint.suffix(for: key, among: known, otherwise: "; remove it")
            report(
                path[key], rule: "unknown-member", "\(noun) has no member \(ProblemText.quoted(key))\(hint)",
                allowed: "the members " + known.joined(separator: ", "))
        }
        return ShapeObject(path: path, noun: noun, members: members)
    }

    mutating func string(
        _ value: JSONValue, at path: ProblemPath, allowed: String, kind: JSONKind = .string
    ) -> String? {
        guard case .string(let text) = value else {
            wrongType(value, at: path, expected: allowed, kind: kind)
            return nil
        }
        return text
    }

    mutating func integer(_ value: JSONValue, at path: ProblemPath, allowed: String) -> Int? {
        guard case .number = value, value.typeName == "an integer" else {
            wrongType(value, at: path, expected: allowed, kind: .integer)
            return nil
        }
        guard let number = value.int64 else {
            report(
                path, rule: "invalid-value", "\(value.shortDescription) is too large; use a smaller number",
                allowed: allowed)
            return nil
        }
        return Int(number)
    }

    mutating func array(
        _ value: JSONValue, at path: ProblemPath, allowed: String, elements: JSONKind
    ) -> [JSONValue]? {
        guard case .array(let items) = value else {
            wrongType(value, at: path, expected: allowed, kind: elements == .object ? .objectArray : .stringArray)
            return nil
        }
        return items
    }

    /// The value `value` spells in any case (``EnumeratedValue``, the reader of every input).
    mutating func enumeration<Value: EnumeratedValue>(
        _ value: JSONValue, at path: ProblemPath, naming what: String
    ) -> Value? {
        let allowed = AllowedText.oneOf(Value.self)
        guard let text = string(value, at: path, allowed: allowed, kind: .name) else { return nil }
        if let result = Value(anyCase: text) { return result }
        let names = Value.allCases.map(\.rawValue)
        let hint = SpellingHint.suffix(for: text, among: names)
        report(path, rule: "invalid-value", "\(ProblemText.quoted(text)) is not \(what)\(hint)", allowed: allowed)
        return nil
    }

    mutating func date(_ value: JSONValue, at path: ProblemPath) -> CalendarDate? {
        guard let text = string(value, at: path, allowed: CampaignDateText.allowed, kind: .name) else { return nil }
        switch CampaignDateText.resolve(text, today: today) {
        case .success(let date):
            return date
        case .failure(let failure):
            report(
                path, rule: "invalid-date", "\(ProblemText.quoted(text)) \(CampaignDateText.describe(failure))",
                allowed: CampaignDateText.allowed)
            return nil
        }
    }

    // MARK: Wrong types

    /// The JSON type a field expects, for the hint of a `wrong-type` problem.
    enum JSONKind: Equatable {
        /// Free text: a number or boolean was probably meant as text.
        case string
        /// A word from a list, or a date: no hint.
        case name
        case integer
        case bool
        case object
        case stringArray
        case objectArray
        /// `null` for a required member: no hint.
        case unknown
    }

    /// Reports a value of the wrong JSON type, with a hint when the fix is obvious.
    mutating func wrongType(_ value: JSONValue, at path: ProblemPath, expected allowed: String, kind: JSONKind) {
        report(
            path, rule: "wrong-type", "expected \(allowed), found \(value.shortDescription)\(Self.hint(value, kind))",
            allowed: allowed)
    }

    private static func hint(_ value: JSONValue, _ kind: JSONKind) -> String {
        switch (value, kind) {
        case (.string(let text), .integer) where Int64(text) != nil: "; remove the quotes"
        case (.string(let text), .bool) where text == "true" || text == "false": "; remove the quotes"
        case (.number, .integer): "; use a whole number"
        case (.number, .string), (.bool, .string): "; put the value in quotes"
        case (.string, .stringArray), (.object, .objectArray): "; put the value in brackets: [ … ]"
        default: ""
        }
    }
}
