import Foundation

/// A request field is missing, malformed or out of range. Every case names the field by its
/// path in the request JSON (for example `items[0].offer.periodCount`).
public enum RequestValidationError: Error, Equatable, Sendable {
    /// A required value is empty.
    case empty(field: String)
    /// The value is longer than Apple allows.
    case tooLong(field: String, maximum: Int, actual: Int)
    /// The value does not have the expected form.
    case invalidFormat(field: String, expected: String)
    /// A number is outside the allowed range.
    case outOfRange(field: String, expected: String)

    /// The path of the field at fault.
    public var field: String {
        switch self {
        case .empty(let field), .tooLong(let field, _, _), .invalidFormat(let field, _),
            .outOfRange(let field, _):
            field
        }
    }

    /// The same error with its field path placed under `parent` (`item` + `SKU` → `item.SKU`).
    func nested(under parent: String) -> RequestValidationError {
        let path = field.hasPrefix("[") ? parent + field : parent + "." + field
        switch self {
        case .empty: return .empty(field: path)
        case .tooLong(_, let maximum, let actual): return .tooLong(field: path, maximum: maximum, actual: actual)
        case .invalidFormat(_, let expected): return .invalidFormat(field: path, expected: expected)
        case .outOfRange(_, let expected): return .outOfRange(field: path, expected: expected)
        }
    }
}

extension RequestValidationError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .empty(let field):
            "\(field) is empty: a value is required."
        case .tooLong(let field, let maximum, let actual):
            "\(field) is \(actual) characters long: at most \(maximum) are allowed."
        case .invalidFormat(let field, let expected):
            "\(field) is invalid: expected \(expected)."
        case .outOfRange(let field, let expected):
            "\(field) is out of range: expected \(expected)."
        }
    }
}

/// Field checks shared by every request type.
package enum Check {
    static func identifier(_ value: String, _ field: String) throws(RequestValidationError) {
        guard !value.isEmpty else { throw .empty(field: field) }
        guard isPlainText(value.utf8) else {
            throw .invalidFormat(field: field, expected: "text without control characters or U+2063")
        }
    }

    /// No control character (Unicode category Cc: U+0000–U+001F, U+007F–U+009F) and no U+2063,
    /// checked on the UTF-8 bytes in one pass: this runs on every signature.
    /// The service's schemas check the same rule (`StringRules.Format.plainText`).
    package static func isPlainText(_ utf8: String.UTF8View) -> Bool {
        if let result = utf8.withContiguousStorageIfAvailable({ isPlainText(bytes: $0) }) { return result }
        return isPlainText(bytes: Array(utf8))
    }

    @inline(__always)
    private static func isPlainText<Bytes: Collection<UInt8>>(bytes: Bytes) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in bytes {
            if byte < 0x20 || byte == 0x7F { return false }
            if previous == 0xC2, (0x80...0x9F).contains(byte) { return false }  // U+0080–U+009F
            if beforePrevious == 0xE2, previous == 0x81, byte == 0xA3 { return false }  // U+2063
            beforePrevious = previous
            previous = byte
        }
        return true
    }

    static func optionalIdentifier(_ value: String?, _ field: String) throws(RequestValidationError) {
        if let value { try identifier(value, field) }
    }

    /// Length in UTF-16 code units: the strictest count among Apple's libraries (Java, Node).
    static func text(_ value: String, _ field: String, maximum: Int) throws(RequestValidationError) {
        try identifier(value, field)
        let length = value.utf16.count
        guard length <= maximum else { throw .tooLong(field: field, maximum: maximum, actual: length) }
    }

    static func optionalText(_ value: String?, _ field: String, maximum: Int) throws(RequestValidationError) {
        if let value { try text(value, field, maximum: maximum) }
    }

    static func upperLetters(_ value: String, _ field: String, count: Int, meaning: String)
        throws(RequestValidationError)
    {
        guard value.utf8.count == count, value.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) })
        else {
            throw .invalidFormat(field: field, expected: "\(count) upper-case letters (\(meaning))")
        }
    }

    static func nonNegative(_ value: Int64, _ field: String) throws(RequestValidationError) {
        guard value >= 0 else {
            throw .outOfRange(field: field, expected: "an integer ≥ 0, in milli-units of the currency")
        }
    }

    /// A list of 1 to `maximum` elements, each valid.
    static func nonEmptyList<T>(
        _ list: [T], _ field: String, maximum: Int, each validate: (T) throws(RequestValidationError) -> Void
    ) throws(RequestValidationError) {
        guard !list.isEmpty else { throw .empty(field: field) }
        guard list.count <= maximum else {
            throw .outOfRange(field: field, expected: "at most \(maximum) items, found \(list.count)")
        }
        for (index, element) in list.enumerated() {
            do {
                try validate(element)
            } catch {
                throw error.nested(under: "\(field)[\(index)]")
            }
        }
    }

    /// Like ``nonEmptyList(_:_:maximum:each:)`` for a list that may be absent.
    static func optionalList<T>(
        _ list: [T]?, _ field: String, maximum: Int, each validate: (T) throws(RequestValidationError) -> Void
    ) throws(RequestValidationError) {
        if let list { try nonEmptyList(list, field, maximum: maximum, each: validate) }
    }

    static func nested(_ field: String, _ validate: () throws(RequestValidationError) -> Void)
        throws(RequestValidationError)
    {
        do {
            try validate()
        } catch {
            throw error.nested(under: field)
        }
    }
}
