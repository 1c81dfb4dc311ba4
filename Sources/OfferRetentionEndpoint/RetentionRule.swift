/// One rule of an app: when it matches a request, and what it decides.
///
/// A rule matches when its `productId` (if any) equals the request's exactly and its `locale`
/// (if any) is a prefix of the request's `userLocale` ending at a `-` or at the end (`en`
/// matches `en` and `en-US`, `en-US` only `en-US`; letters compared without case). A rule with
/// neither matches every request: the app's default rule.
public struct RetentionRule: Sendable, Hashable {
    /// The product the customer looks at cancelling; `nil`: any product.
    public var productId: String?
    /// A locale prefix such as `en` or `en-US`; `nil`: any locale.
    public var locale: String?
    /// What to answer.
    public var decision: RetentionDecision

    public init(productId: String? = nil, locale: String? = nil, decision: RetentionDecision) {
        self.productId = productId
        self.locale = locale
        self.decision = decision
    }

    /// Whether the rule applies to a request for `productId` in `userLocale`.
    public func matches(productId: String, userLocale: String) -> Bool {
        if let required = self.productId, required != productId { return false }
        if let locale, !Self.locale(locale, isPrefixOf: userLocale) { return false }
        return true
    }

    /// Whether `prefix` starts `locale` and ends at its end or before a `-`, ASCII case ignored.
    static func locale(_ prefix: String, isPrefixOf locale: String) -> Bool {
        var remaining = locale.utf8.makeIterator()
        for byte in prefix.utf8 {
            guard let other = remaining.next(), lowercased(other) == lowercased(byte) else { return false }
        }
        guard let next = remaining.next() else { return true }
        return next == UInt8(ascii: "-")
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
