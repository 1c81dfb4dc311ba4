/// A parsed JSON value that keeps what a verifier needs to be strict: member order, duplicate
/// keys (rejected), and the literal text of numbers (so `1.0` is not mistaken for an integer).
package enum JSONValue: Equatable, Sendable {
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let a), .array(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    package var keys: [String] {
        guard case .object(let members) = self else { return [] }
        return members.map(\.key)
    }

    package var typeName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number(let text):
            text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? "a fractional number" : "an integer"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    /// The type, and for strings and numbers the value (clipped), for error messages.
    package var shortDescription: String {
        switch self {
        case .string(let text):
            let shown = text.count > 48 ? String(text.prefix(48)) + "…" : text
            return "\(typeName) \"\(shown)\""
        case .number(let text): return "\(typeName) \(text.prefix(24))"
        default: return typeName
        }
    }

    /// An integer literal (no fraction, no exponent) that fits in Int64.
    package var int64: Int64? {
        guard case .number(let text) = self else { return nil }
        return Int64(text)
    }

    package struct ParseError: Error { package let message: String }

    package static func parse(_ bytes: [UInt8]) throws(ParseError) -> JSONValue {
        var parser = Parser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw ParseError(message: "trailing characters after the JSON value") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) throws(ParseError) -> JSONValue {
            guard depth < 64 else { throw ParseError(message: "nesting deeper than 64 levels") }
            guard index < bytes.count else { throw ParseError(message: "unexpected end of JSON") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"):
                try literal("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                return .null
            default: return .number(try number())
            }
        }

        mutating func literal(_ word: String) throws(ParseError) {
            let expected = Array(word.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw ParseError(message: "invalid literal at byte \(index)")
            }
            index += expected.count
        }

        mutating func object(depth: Int) throws(ParseError) -> JSONValue {
            index += 1
            var members: [(key: String, value: JSONValue)] = []
            // Duplicate names are found by a linear scan while the object is small, then by a set:
            // linear time for any object, and no set for the small objects that signing parses.
            var names: Set<String>?
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw ParseError(message: "expected a member name at byte \(index)")
                }
                let key = try string()
                let duplicate: Bool
                if names != nil {
                    // In place (optional chaining), without a copy of the set.
                    duplicate = names?.insert(key).inserted == false
                } else if members.count < 16 {
                    duplicate = members.contains(where: { $0.key == key })
                } else {
                    var set = Set(members.map(\.key))
                    duplicate = !set.insert(key).inserted
                    names = set
                }
                guard !duplicate else {
                    throw ParseError(message: "duplicate member \"\(key)\"")
                }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw ParseError(message: "expected ':' at byte \(index)")
                }
                index += 1
                skipWhitespace()
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                guard index < bytes.count else { throw ParseError(message: "unterminated object") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                } else {
                    throw ParseError(message: "expected ',' or '}' at byte \(index)")
                }
            }
        }

        mutating func array(depth: Int) throws(ParseError) -> JSONValue {
            index += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw ParseError(message: "unterminated array") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements)
                } else {
                    throw ParseError(message: "expected ',' or ']' at byte \(index)")
                }
            }
        }

        mutating func string() throws(ParseError) -> String {
            index += 1
            var out: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    guard let text = String(validating: out, as: UTF8.self) else {
                        throw ParseError(message: "string is not valid UTF-8")
                    }
                    return text
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { break }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800..<0xDC00).contains(scalar) {
                            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                                bytes[index + 1] == UInt8(ascii: "u")
                            else { throw ParseError(message: "unpaired surrogate in string") }
                            index += 2
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else {
                                throw ParseError(message: "unpaired surrogate in string")
                            }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let unicode = Unicode.Scalar(scalar) else {
                            throw ParseError(message: "invalid \\u escape in string")
                        }
                        out.append(contentsOf: String(Character(unicode)).utf8)
                    default:
                        throw ParseError(message: "invalid escape in string")
                    }
                default:
                    guard byte >= 0x20 else { throw ParseError(message: "control character in string") }
                    out.append(byte)
                }
            }
            throw ParseError(message: "unterminated string")
        }

        mutating func hex4() throws(ParseError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw ParseError(message: "truncated \\u escape") }
            var value: UInt32 = 0
            for byte in bytes[index..<index + 4] {
                guard let digit = byte.hexValue.map(UInt32.init) else {
                    throw ParseError(message: "invalid \\u escape")
                }
                value = value << 4 | digit
            }
            index += 4
            return value
        }

        mutating func number() throws(ParseError) -> String {
            let start = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digitsStart = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > digitsStart else { throw ParseError(message: "invalid value at byte \(start)") }
            if bytes[digitsStart] == UInt8(ascii: "0"), index - digitsStart > 1 {
                throw ParseError(message: "number with a leading zero at byte \(start)")
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                let fractionStart = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                guard index > fractionStart else { throw ParseError(message: "invalid number at byte \(start)") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                let exponentStart = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                guard index > exponentStart else { throw ParseError(message: "invalid number at byte \(start)") }
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
    }
}
