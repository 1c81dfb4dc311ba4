import OfferJSON
import OfferSigning

/// Writes a JSON value as block-style YAML 1.2 that any YAML parser reads back as the same value.
///
/// - Strings are double-quoted with escapes (JSON's, which YAML's double-quoted style shares, plus
///   `\uXXXX` for every character YAML does not allow unescaped and for line separators).
/// - Mapping keys are plain when they cannot be read as anything but that string, quoted otherwise
///   (`"200"`, `"true"`, `"/v1/apps/{bundleId}"`).
/// - Empty objects and arrays are `{}` and `[]`; numbers keep their JSON text, except that
///   exponents get a fraction and a sign (`1e5` as `1.0e+5`) so YAML 1.1 parsers read a float too.
package enum YAMLWriter {
    /// `value` as a YAML document ending in a newline.
    package static func text(of value: JSONValue) -> String {
        var lines: [String] = []
        switch value {
        case .object(let members) where !members.isEmpty: writeMembers(members, indent: 0, into: &lines)
        case .array(let items) where !items.isEmpty: writeItems(items, indent: 0, into: &lines)
        default: lines.append(scalar(value))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func writeMembers(
        _ members: [(key: String, value: JSONValue)], indent: Int, into lines: inout [String]
    ) {
        let pad = String(repeating: " ", count: indent)
        for member in members {
            let key = self.key(member.key)
            switch member.value {
            case .object(let nested) where !nested.isEmpty:
                lines.append("\(pad)\(key):")
                writeMembers(nested, indent: indent + 2, into: &lines)
            case .array(let items) where !items.isEmpty:
                lines.append("\(pad)\(key):")
                writeItems(items, indent: indent + 2, into: &lines)
            default:
                lines.append("\(pad)\(key): \(scalar(member.value))")
            }
        }
    }

    /// Each item as `- ` followed by the item, whose further lines are indented under it.
    private static func writeItems(_ items: [JSONValue], indent: Int, into lines: inout [String]) {
        let pad = String(repeating: " ", count: indent)
        for item in items {
            var nested: [String] = []
            switch item {
            case .object(let members) where !members.isEmpty: writeMembers(members, indent: indent + 2, into: &nested)
            case .array(let elements) where !elements.isEmpty: writeItems(elements, indent: indent + 2, into: &nested)
            default:
                lines.append("\(pad)- \(scalar(item))")
                continue
            }
            nested[0] = pad + "- " + nested[0].dropFirst(indent + 2)
            lines.append(contentsOf: nested)
        }
    }

    private static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): quoted(text)
        case .number(let text): number(text)
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        case .object: "{}"
        case .array: "[]"
        }
    }

    /// Words that YAML 1.1 or 1.2 parsers read as booleans or null when plain.
    private static let reservedWords: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"]

    /// A key that is plain when it starts with a letter, `_`, `$` or `/` and has only letters,
    /// digits and `_ $ / . + -` (nothing YAML could read as a number, boolean, null or indicator).
    private static func key(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, !reservedWords.contains(text.lowercased()),
            isASCIILetter(first) || "_$/".unicodeScalars.contains(first),
            text.unicodeScalars.allSatisfy({
                isASCIILetter($0) || ("0"..."9").contains($0) || "_$/.+-".unicodeScalars.contains($0)
            })
        else { return quoted(text) }
        return text
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// `text` double-quoted, with every character YAML does not take unescaped written as an escape.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if isPrintable(scalar) {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += "\\u" + Hex.padded(scalar.value, digits: 4)
                }
            }
        }
        return out + "\""
    }

    /// YAML 1.2's printable set (tab and the line breaks are escaped above), without U+0085,
    /// U+2028, U+2029 (line breaks to a parser) and U+FEFF (a byte order mark).
    private static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E, 0xA0...0x2027, 0x202A...0xD7FF, 0xE000...0xFEFE, 0xFF00...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// A JSON number as YAML: integers and decimals as they are; an exponent with a fraction and a sign.
    private static func number(_ text: String) -> String {
        guard let exponent = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return text }
        var mantissa = String(text[..<exponent])
        var power = String(text[text.index(after: exponent)...])
        if !mantissa.contains(".") { mantissa += ".0" }
        if !power.hasPrefix("+"), !power.hasPrefix("-") { power = "+" + power }
        return mantissa + "e" + power
    }
}
