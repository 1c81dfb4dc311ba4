import OfferJSON

/// A JSON object of one of Apple's answers, read tolerantly where Apple may add to it (unknown
/// members are ignored) and strictly where OfferKit uses it: the documented types, strings
/// bounded and free of control characters, integers exact.
struct AnswerObject {
    let value: JSONValue
    let path: String

    /// The largest answer body read, in bytes.
    static let maximumBytes = 1 << 20

    /// The top-level object of an answer body.
    static func parse(_ bytes: [UInt8]) throws(RetentionAnswerError) -> AnswerObject {
        guard bytes.count <= maximumBytes else {
            throw .notJSON("\(bytes.count) bytes, more than the \(maximumBytes) read")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw .notJSON(error.message)
        }
        return try AnswerObject(value, path: "")
    }

    init(_ value: JSONValue, path: String) throws(RetentionAnswerError) {
        guard case .object = value else {
            throw .unexpected(path: path, expected: "an object (found \(value.typeName))")
        }
        self.value = value
        self.path = path
    }

    func memberPath(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// A member, `nil` when absent or `null`.
    subscript(_ key: String) -> JSONValue? {
        if case .null = value[key] { return nil }
        return value[key]
    }

    func object(_ key: String) throws(RetentionAnswerError) -> AnswerObject? {
        guard let member = self[key] else { return nil }
        return try AnswerObject(member, path: memberPath(key))
    }

    func requiredObject(_ key: String) throws(RetentionAnswerError) -> AnswerObject {
        guard let object = try object(key) else {
            throw .unexpected(path: memberPath(key), expected: "present (Apple documents it as required)")
        }
        return object
    }

    func string(_ key: String, maximum: Int = 256) throws(RetentionAnswerError) -> String? {
        guard let member = self[key] else { return nil }
        return try Self.text(member, path: memberPath(key), maximum: maximum)
    }

    func requiredString(_ key: String, maximum: Int = 256) throws(RetentionAnswerError) -> String {
        guard let text = try string(key, maximum: maximum) else {
            throw .unexpected(path: memberPath(key), expected: "present (Apple documents it as required)")
        }
        return text
    }

    func integer(_ key: String) throws(RetentionAnswerError) -> Int64? {
        guard let member = self[key] else { return nil }
        return try Self.integer(member, path: memberPath(key))
    }

    func requiredInteger(_ key: String) throws(RetentionAnswerError) -> Int64 {
        guard let number = try integer(key) else {
            throw .unexpected(path: memberPath(key), expected: "present (Apple documents it as required)")
        }
        return number
    }

    /// An array member's elements; at most `maximum` of them.
    func array(_ key: String, maximum: Int = 100_000) throws(RetentionAnswerError) -> [JSONValue]? {
        guard let member = self[key] else { return nil }
        guard case .array(let items) = member else {
            throw .unexpected(path: memberPath(key), expected: "an array (found \(member.typeName))")
        }
        guard items.count <= maximum else {
            throw .unexpected(path: memberPath(key), expected: "at most \(maximum) entries (found \(items.count))")
        }
        return items
    }

    /// The members of this object (for maps such as `failures`).
    var members: [(key: String, value: JSONValue)] {
        guard case .object(let members) = value else { return [] }
        return members
    }

    static func text(_ value: JSONValue, path: String, maximum: Int) throws(RetentionAnswerError) -> String {
        guard case .string(let text) = value else {
            throw .unexpected(path: path, expected: "a string (found \(value.typeName))")
        }
        guard text.unicodeScalars.count <= maximum else {
            throw .unexpected(
                path: path, expected: "at most \(maximum) characters (found \(text.unicodeScalars.count))")
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .unexpected(path: path, expected: "text without control characters")
        }
        return text
    }

    static func integer(_ value: JSONValue, path: String) throws(RetentionAnswerError) -> Int64 {
        guard let number = value.exactInteger else {
            throw .unexpected(path: path, expected: "an integer (found \(value.shortDescription))")
        }
        return number
    }
}
