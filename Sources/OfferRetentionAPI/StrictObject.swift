import OfferJSON
import OfferSigning

/// A JSON object read strictly, as OfferKit reads every document a person gives it: only the
/// members named, no `null`, each required string present. (Repeated members are refused by the
/// parser.)
struct StrictObject {
    let members: [(key: String, value: JSONValue)]
    let path: String

    init(_ value: JSONValue, path: String, allowed: Set<String>) throws(RequestDecodingError) {
        guard case .object(let members) = value else {
            throw .wrongType(path: path, expected: "an object, found \(value.typeName)")
        }
        for member in members {
            let memberPath = Self.join(path, member.key)
            guard allowed.contains(member.key) else { throw .unknownField(path: memberPath) }
            if case .null = member.value {
                throw .wrongType(path: memberPath, expected: "a value, found null (leave the member out instead)")
            }
        }
        self.members = members
        self.path = path
    }

    subscript(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }

    /// A required string member.
    func string(_ key: String) throws(RequestDecodingError) -> String {
        let memberPath = Self.join(path, key)
        guard let value = self[key] else { throw .missingField(path: memberPath, hint: nil) }
        guard case .string(let text) = value else {
            throw .wrongType(path: memberPath, expected: "a string, found \(value.typeName)")
        }
        return text
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }
}
