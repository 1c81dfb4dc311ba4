import OfferJSON

/// A JSON object being read, with where it is and what to call it in messages.
struct ShapeObject {
    /// Where the object is.
    var path: ProblemPath
    /// What messages call it: "the offer", "the price entry", …
    var noun: String
    /// Its members, in document order.
    var members: [(key: String, value: JSONValue)]

    /// The member's value, or `nil` when the object has no such member.
    subscript(key: String) -> JSONValue? {
        members.first(where: { $0.key == key })?.value
    }

    /// Whether the member is there with a value other than `null`.
    func has(_ key: String) -> Bool {
        guard let value = self[key] else { return false }
        return value != .null
    }
}
