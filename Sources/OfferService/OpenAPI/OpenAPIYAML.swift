import OfferJSON
import OfferSigning
import Yams

/// Writes a JSON value as block-style YAML with Yams (libyaml's emitter), keeping member order.
///
/// String values are double-quoted (libyaml escapes what YAML does not take raw); keys are quoted
/// only when YAML would read them as something else (`"200"`, `"true"`), as Yams quotes them.
/// Numbers are written so that YAML 1.1 readers such as PyYAML read them as numbers too (`1e5` as
/// `1.0e+5`).
enum OpenAPIYAML {
    /// `value` as YAML text ending in a newline. Should Yams refuse the value, the JSON text is
    /// returned: JSON is YAML 1.2, and the document is still the same.
    static func text(of value: JSONValue) -> String {
        do {
            return try Yams.serialize(node: node(value), width: -1, allowUnicode: true)
        } catch {
            return value.text(pretty: true) + "\n"
        }
    }

    static func node(_ value: JSONValue) -> Node {
        switch value {
        case .object(let members):
            return .mapping(Node.Mapping(members.map { (Node.scalar($0.key.represented()), node($0.value)) }))
        case .array(let elements):
            return .sequence(Node.Sequence(elements.map(node)))
        case .string(let text):
            return .scalar(Node.Scalar(text, Tag(.str), .doubleQuoted))
        case .number(let text):
            return Node(number(text), Tag(Int64(text) == nil ? .float : .int))
        case .bool(let flag):
            return Node(flag ? "true" : "false", Tag(.bool))
        case .null:
            return Node("null", Tag(.null))
        }
    }

    /// A JSON number literal as YAML 1.1 reads it: a fraction or exponent needs a `.` in the
    /// mantissa and a sign in the exponent (`1e5` → `1.0e+5`, `2E-3` → `2.0e-3`).
    static func number(_ literal: String) -> String {
        if Int64(literal) != nil { return literal }
        let lower = literal.lowercased()
        let parts = lower.split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
        var mantissa = String(parts[0])
        if !mantissa.contains(".") { mantissa += ".0" }
        guard parts.count == 2 else { return mantissa }
        var exponent = String(parts[1])
        if !exponent.hasPrefix("-"), !exponent.hasPrefix("+") { exponent = "+" + exponent }
        return mantissa + "e" + exponent
    }
}
