import Foundation

/// Decodes `Decodable` values straight from a parsed ``JSONValue``, so that a document parsed once
/// (and perhaps already checked against a schema) is not written out and parsed again by
/// Foundation's `JSONDecoder`.
///
/// Numbers are read exactly from their literal (``JSONValue/exactInteger``): an integer field takes
/// `4990`, `4.99e3` or `4990.0` as 4990 and refuses `4.5` or `1e-400`, with no `Double` on the way.
/// Errors are Foundation's `DecodingError`s with the coding path of the value at fault.
package struct JSONValueDecoder {
    package init() {}

    package func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try T(from: ValueDecoder(value: value, codingPath: []))
    }
}

private struct IndexKey: CodingKey {
    var stringValue: String { String(index) }
    var intValue: Int? { index }
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.index = intValue }
}

/// The decoder of one value.
private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw mismatch([String: Any].self, value, codingPath)
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([Any].self, value, codingPath) }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleContainer(value: value, codingPath: codingPath)
    }
}

private func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
    if value == .null {
        return .valueNotFound(type, .init(codingPath: path, debugDescription: "found null"))
    }
    return .typeMismatch(type, .init(codingPath: path, debugDescription: "found \(value.typeName)"))
}

/// Reads one value: strings and booleans here, everything else through its own `init(from:)`.
private func scalar<T: Decodable>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) throws -> T {
    if type == String.self || type == Bool.self {
        let read: Any? =
            switch value {
            case .string(let text): text
            case .bool(let flag): flag
            default: nil
            }
        guard let result = read as? T else { throw mismatch(type, value, path) }
        return result
    }
    return try T(from: ValueDecoder(value: value, codingPath: path))
}

private func integer<T: FixedWidthInteger>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) throws -> T {
    guard case .number = value else { throw mismatch(type, value, path) }
    guard let exact = value.exactInteger, let result = T(exactly: exact) else {
        throw DecodingError.dataCorrupted(
            .init(codingPath: path, debugDescription: "\(value.numberDescription) does not fit \(type)"))
    }
    return result
}

private func floating(_ value: JSONValue, _ path: [any CodingKey]) throws -> Double {
    guard case .number(let text) = value, let number = Double(text) else { throw mismatch(Double.self, value, path) }
    return number
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(key: String, value: JSONValue)]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { members.contains { $0.key == key.stringValue } }

    private func value(_ key: Key) throws -> JSONValue {
        guard let member = members.first(where: { $0.key == key.stringValue }) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "no member \"\(key.stringValue)\""))
        }
        return member.value
    }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(type, value(key), path(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(type, value(key), path(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try floating(value(key), path(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try floating(value(key), path(key))) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, value(key), path(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, value(key), path(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, value(key), path(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, value(key), path(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, value(key), path(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, value(key), path(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, value(key), path(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, value(key), path(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, value(key), path(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, value(key), path(key)) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try scalar(type, value(key), path(key))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: value(key), codingPath: path(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: value(key), codingPath: path(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ValueDecoder(value: .object(members), codingPath: codingPath) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: (try? value(key)) ?? .null, codingPath: path(key))
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next<T>(_ type: T.Type) throws -> (JSONValue, [any CodingKey]) {
        let path = codingPath + [IndexKey(currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "the array has ended"))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], path)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next(type)
        return try scalar(type, value, path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next([String: Any].self)
        return try ValueDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next([Any].self)
        return try ValueDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next(JSONValue.self)
        return ValueDecoder(value: value, codingPath: path)
    }
}

private struct SingleContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try scalar(type, value, codingPath) }
    func decode(_ type: String.Type) throws -> String { try scalar(type, value, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try floating(value, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { Float(try floating(value, codingPath)) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type, value, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type, value, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type, value, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type, value, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type, value, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type, value, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type, value, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type, value, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type, value, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type, value, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try scalar(type, value, codingPath) }
}
