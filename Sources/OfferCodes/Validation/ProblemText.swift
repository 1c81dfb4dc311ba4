import OfferJSON

/// Small pieces of wording shared by the reader's and the rules' messages.
package enum ProblemText {
    /// The longest value shown in a message; longer ones are clipped with "…".
    static let clipLength = 48

    /// `"value"`, clipped to `limit` characters (``clipLength`` unless told), with control characters escaped.
    package static func quoted(_ value: String, clippedAt limit: Int = clipLength) -> String {
        let clipped = value.count > limit ? String(value.prefix(limit)) + "…" : value
        var text = "\""
        for scalar in clipped.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                text += scalarName(scalar)
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }

    /// `U+000A` for a scalar.
    static func scalarName(_ scalar: Unicode.Scalar) -> String { Hex.scalarName(scalar) }

    /// `1,000,000`.
    package static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var text = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return (value < 0 ? "-" : "") + text
    }

    /// `A, B, C`.
    static func list<Value: RawRepresentable>(_ values: [Value]) -> String where Value.RawValue == String {
        values.map(\.rawValue).joined(separator: ", ")
    }

    /// "an auto-renewable subscription", "a consumable", …
    static func withArticle(_ type: ProductType) -> String {
        (type == .autoRenewableSubscription ? "an " : "a ") + type.displayName
    }

    /// `1 code`, `2 codes`.
    static func count(_ value: Int, _ noun: String) -> String {
        "\(grouped(value)) \(noun)\(value == 1 ? "" : "s")"
    }
}
