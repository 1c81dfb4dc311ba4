import OfferJSON
import OfferSigning

extension JSONSchema {
    /// An example value for the document, built only from the examples the schemas declare:
    /// the schema's own example, else an object of its members' examples (every required member
    /// must have one), an array of its items' example, the first choice of a `oneOf` or `anyOf`, or an
    /// integer's minimum. `nil` when a required part has no example.
    package var documentedExample: JSONValue? {
        if let example { return example }
        switch kind {
        case .component(_, let schema):
            return schema.documentedExample
        case .object(let properties, _):
            var members: [(key: String, value: JSONValue)] = []
            for property in properties {
                if let value = property.schema.documentedExample {
                    members.append((property.name, value))
                } else if property.required {
                    return nil
                }
            }
            return .object(members)
        case .array(let items, let minItems, let maxItems):
            guard let item = items.documentedExample else { return minItems ?? 0 == 0 ? .array([]) : nil }
            let count = min(max(minItems ?? 1, 1), maxItems ?? Int.max)
            return .array(Array(repeating: item, count: count))
        case .oneOf(let choices, _), .anyOf(let choices):
            return choices.lazy.compactMap(\.documentedExample).first
        case .integer(let minimum, _):
            return minimum.map { .integer($0) }
        case .string, .boolean, .any:
            return nil
        }
    }
}
