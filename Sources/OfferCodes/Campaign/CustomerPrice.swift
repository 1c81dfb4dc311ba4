/// A price as customers see it in one territory's currency, such as `4.99` (USD) or `480` (JPY):
/// what a campaign may give instead of a price point id, for OfferKit to look the price point up.
///
/// Written as a decimal string: 1 to 12 digits, optionally a `.` and 1 to 4 more digits, more than
/// zero; no sign, exponent, spaces or grouping. Two texts name the same price when their numbers
/// are equal (`480`, `480.0` and `0480.00` are one price), as App Store Connect writes its
/// `customerPrice` attributes in several ways.
public struct CustomerPrice: Sendable, Hashable, CustomStringConvertible {
    /// The text as the campaign wrote it.
    public let text: String
    /// The number without leading zeros of the integer part or trailing zeros of the fraction (`480`, `4.99`).
    public let normalized: String

    /// The most digits before the decimal point.
    public static let maximumIntegerDigits = 12
    /// The most digits after it.
    public static let maximumFractionDigits = 4

    /// A customer price, or `nil` when `text` is not one (see ``problem(with:)``).
    public init?(_ text: String) {
        guard Self.problem(with: text) == nil, let normalized = Self.normalize(text) else { return nil }
        self.text = text
        self.normalized = normalized
    }

    /// What is wrong with `text` as a customer price, or `nil` when it is one.
    public static func problem(with text: String) -> String? {
        let parts = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) })
        else {
            return "is not a price written as digits with an optional decimal point, such as \"4.99\" or \"480\""
        }
        if parts[0].count > maximumIntegerDigits {
            return "has more than \(maximumIntegerDigits) digits before the decimal point"
        }
        if parts.count == 2, parts[1].count > maximumFractionDigits {
            return "has more than \(maximumFractionDigits) digits after the decimal point"
        }
        if normalize(text) == "0" { return "is zero; write \"free\": true for a free territory" }
        return nil
    }

    /// The number without leading and trailing zeros, or `nil` when `text` is not digits and a point.
    static func normalize(_ text: String) -> String? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return nil }
        var integer = String(parts[0].drop { $0 == "0" })
        if integer.isEmpty { integer = "0" }
        guard parts.count == 2 else { return integer }
        var fraction = String(parts[1])
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? integer : integer + "." + fraction
    }

    /// Whether `other` (App Store Connect's `customerPrice`, such as `"4.99"` or `"480.0"`) is this price.
    public func isSame(as other: String) -> Bool {
        Self.normalize(other).map { $0 == normalized } ?? false
    }

    /// The text as written.
    public var description: String { text }
}

extension Character {
    /// `0` to `9` (ASCII only).
    var isASCIIDigit: Bool { asciiValue.map { (0x30...0x39).contains($0) } ?? false }
}
