import Foundation
import OfferJSON

/// A request document (JSON) could not be turned into a valid request. Every case names the
/// JSON path of the field at fault, such as `items[0].offer.period`.
public enum RequestDecodingError: Error, Equatable, Sendable {
    /// The document is not valid JSON.
    case invalidJSON(String)
    /// A required field is absent.
    case missingField(path: String, hint: String?)
    /// A field has the wrong JSON type.
    case wrongType(path: String, expected: String)
    /// A field's value is not allowed.
    case invalidValue(path: String, reason: String)
    /// A field that the request type does not have (often a typo or wrong case).
    case unknownField(path: String)
    /// The document decoded but breaks one of Apple's limits.
    case invalidRequest(RequestValidationError)

    /// The JSON path at fault, if any.
    public var path: String? {
        switch self {
        case .invalidJSON: nil
        case .missingField(let path, _), .wrongType(let path, _), .invalidValue(let path, _), .unknownField(let path):
            path
        case .invalidRequest(let error): error.field
        }
    }
}

extension RequestDecodingError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .invalidJSON(let reason): "The request is not valid JSON: \(reason)."
        case .missingField(let path, let hint): "\(path) is missing" + (hint.map { " (\($0))" } ?? "") + "."
        case .wrongType(let path, let expected):
            "\(path.isEmpty ? "The request" : path) has the wrong type: expected \(expected)."
        case .invalidValue(let path, let reason): "\(path): \(reason)."
        case .unknownField(let path): "\(path) is not a field of this request type."
        case .invalidRequest(let error): error.errorDescription
        }
    }
}

extension AdvancedCommerce.InAppRequest {
    /// Decodes and validates a request document, as a pipeline or a service receives it.
    ///
    /// `operation` picks the request type; `version`, when present, must be `"1"`. Unknown
    /// fields are rejected, so a typo such as `sku` for `SKU` cannot slip through.
    /// - Throws: ``RequestDecodingError`` naming the JSON path at fault.
    public static func decode(json: [UInt8]) throws(RequestDecodingError) -> AdvancedCommerce.InAppRequest {
        let document: JSONValue
        do {
            document = try JSONValue.parse(json)
        } catch {
            throw .invalidJSON(error.message)
        }
        // Every number in a request is an integer. Each is read exactly here, and Foundation's
        // decoder gets the plain form (4.99e3 → 4990, 9007199254740993.0 → 9007199254740993):
        // it would read them through a Double, and 1e-400 as 0.
        let (plain, rewritten, sawNonInteger) = Self.integersWrittenPlainly(document)
        let decoderInput = rewritten ? plain.serialized(pretty: false) : json
        let request: AdvancedCommerce.InAppRequest
        do {
            request = try JSONDecoder().decode(AdvancedCommerce.InAppRequest.self, from: Data(decoderInput))
        } catch let error as DecodingError {
            throw RequestDecodingError(error, document: document)
        } catch {
            throw .invalidJSON(String(describing: error))
        }
        if let unknown = Self.firstUnknownField(in: document, known: (try? JSONValue.parse(request.jsonBytes)) ?? .null)
        {
            throw .unknownField(path: unknown)
        }
        // A number that is not exactly an integer, in a field the decoder took (Foundation reads
        // 1e-400 as 0): refused after the type and unknown-field checks, which name other mistakes
        // better.
        if sawNonInteger, let (path, value) = RequestDecodingError.firstNonInteger(in: document) {
            throw .wrongType(path: path, expected: "an integer, found \(value.numberDescription)")
        }
        do {
            try request.validate()
        } catch {
            throw .invalidRequest(error)
        }
        return request
    }

    /// Decodes and validates a request document that is already parsed, without writing it out
    /// and parsing it again: the service's path, after its schema (which refuses unknown members
    /// and checks every type) has checked the document. Unlike ``decode(json:)`` it does not look
    /// for unknown members itself.
    /// - Throws: ``RequestDecodingError`` naming the JSON path at fault, with the same texts as
    ///   ``decode(json:)``.
    package static func decode(document: JSONValue) throws(RequestDecodingError) -> AdvancedCommerce.InAppRequest {
        let request: AdvancedCommerce.InAppRequest
        do {
            request = try JSONValueDecoder().decode(AdvancedCommerce.InAppRequest.self, from: document)
        } catch let error as DecodingError {
            throw RequestDecodingError(error, document: document)
        } catch {
            throw .invalidJSON(String(describing: error))
        }
        do {
            try request.validate()
        } catch {
            throw .invalidRequest(error)
        }
        return request
    }

    /// `value` with every exact integer written as a plain literal; whether any was rewritten,
    /// and whether any number is not exactly an integer in the 64-bit range (left as it is).
    static func integersWrittenPlainly(_ value: JSONValue) -> (JSONValue, rewritten: Bool, sawNonInteger: Bool) {
        switch value {
        case .number(let text):
            if Int64(text) != nil { return (value, false, false) }
            guard let integer = value.exactInteger else { return (value, false, true) }
            return (.number(String(integer)), true, false)
        case .object(let members):
            var rewritten = false
            var sawNonInteger = false
            var result: [(key: String, value: JSONValue)] = []
            for (index, (key, member)) in members.enumerated() {
                let (plain, changed, bad) = integersWrittenPlainly(member)
                sawNonInteger = sawNonInteger || bad
                if changed, !rewritten {
                    rewritten = true
                    result = Array(members[..<index])
                }
                if rewritten { result.append((key, plain)) }
            }
            return (rewritten ? .object(result) : value, rewritten, sawNonInteger)
        case .array(let elements):
            var rewritten = false
            var sawNonInteger = false
            var result: [JSONValue] = []
            for (index, element) in elements.enumerated() {
                let (plain, changed, bad) = integersWrittenPlainly(element)
                sawNonInteger = sawNonInteger || bad
                if changed, !rewritten {
                    rewritten = true
                    result = Array(elements[..<index])
                }
                if rewritten { result.append(plain) }
            }
            return (rewritten ? .array(result) : value, rewritten, sawNonInteger)
        case .string, .bool, .null:
            return (value, false, false)
        }
    }

    /// The path of the first member of `input` that re-encoding the decoded request did not
    /// produce. `null` members count as absent.
    static func firstUnknownField(in input: JSONValue, known: JSONValue, path: String = "") -> String? {
        switch (input, known) {
        case (.object(let members), .object):
            for (key, value) in members where value != .null {
                let childPath = path.isEmpty ? key : "\(path).\(key)"
                guard let counterpart = known[key] else { return childPath }
                if let unknown = firstUnknownField(in: value, known: counterpart, path: childPath) { return unknown }
            }
        case (.array(let elements), .array(let knownElements)):
            for (index, (value, counterpart)) in zip(elements, knownElements).enumerated() {
                if let unknown = firstUnknownField(in: value, known: counterpart, path: "\(path)[\(index)]") {
                    return unknown
                }
            }
        default:
            break
        }
        return nil
    }
}

extension RequestDecodingError {
    init(_ error: DecodingError, document: JSONValue) {
        switch error {
        case .keyNotFound(let key, let context):
            let parentPath = Self.path(context.codingPath)
            let path = parentPath.isEmpty ? key.stringValue : "\(parentPath).\(key.stringValue)"
            let parent = Self.value(at: context.codingPath, in: document)
            let nearMiss = parent?.keys.first { $0.lowercased() == key.stringValue.lowercased() }
            self = .missingField(path: path, hint: nearMiss.map { "found \"\($0)\": names are case-sensitive" })
        case .typeMismatch(let type, let context):
            self = .wrongType(path: Self.path(context.codingPath), expected: Self.describe(type))
        case .valueNotFound(let type, let context):
            self = .wrongType(path: Self.path(context.codingPath), expected: Self.describe(type))
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                // Foundation reports a number that does not fit the field (3.5 or 1e30 for an
                // integer) as invalid JSON without a path; the document did parse, so name the
                // first such number instead.
                if let (path, value) = Self.firstNonInteger(in: document) {
                    self = .wrongType(path: path, expected: "an integer, found \(value.numberDescription)")
                } else {
                    self = .invalidJSON(context.debugDescription)
                }
            } else if context.debugDescription.contains("UUID") {
                self = .invalidValue(
                    path: Self.path(context.codingPath),
                    reason: "expected a UUID such as f55df048-4cd8-4261-b404-b6f813ff70e5")
            } else {
                self = .invalidValue(path: Self.path(context.codingPath), reason: context.debugDescription)
            }
        @unknown default:
            self = .invalidJSON(String(describing: error))
        }
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        var result = ""
        for key in codingPath {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return result
    }

    private static func value(at codingPath: [any CodingKey], in document: JSONValue) -> JSONValue? {
        var current: JSONValue? = document
        for key in codingPath {
            if let index = key.intValue, case .array(let elements)? = current {
                current = index < elements.count ? elements[index] : nil
            } else {
                current = current?[key.stringValue]
            }
        }
        return current
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type: "an integer"
        case is UUID.Type: "a UUID string"
        case is [String: Any].Type: "a JSON object"
        case is [Any].Type: "an array"
        default: "a JSON object"
        }
    }

    /// The path and value of the first number that is not exactly an integer in the range of
    /// `Int64`, whatever its spelling (every number in an in-app request is an integer).
    static func firstNonInteger(in value: JSONValue, path: String = "") -> (String, JSONValue)? {
        switch value {
        case .number:
            return value.exactInteger == nil ? (path, value) : nil
        case .object(let members):
            for (key, member) in members {
                if let found = firstNonInteger(in: member, path: path.isEmpty ? key : "\(path).\(key)") { return found }
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let found = firstNonInteger(in: element, path: "\(path)[\(index)]") { return found }
            }
        case .string, .bool, .null:
            break
        }
        return nil
    }
}
