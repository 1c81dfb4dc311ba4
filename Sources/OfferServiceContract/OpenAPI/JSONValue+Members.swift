import OfferJSON
import OfferSigning

extension JSONValue {
    /// An object of the members whose value is present, in the given order.
    package static func members(_ members: [(key: String, value: JSONValue?)]) -> JSONValue {
        .object(members.compactMap { member in member.value.map { (key: member.key, value: $0) } })
    }

    /// A `$ref` to `pointer`, such as `#/components/schemas/Problem`.
    package static func reference(_ pointer: String) -> JSONValue { .object([("$ref", .string(pointer))]) }
}
