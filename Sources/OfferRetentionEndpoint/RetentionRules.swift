import OfferAppleVerification

/// An app's rules, in order: the first that matches a request decides; when none does, the
/// answer is ``RetentionDecision/default`` (`{}`: Apple shows the default message).
///
/// Read from JSON (the `retention.apps[bundleId]` array of a service configuration) by
/// ``init(json:path:)``:
///
/// ```json
/// [
///   { "productId": "com.example.offerkit.monthly", "locale": "en",
///     "promotionalOffer": { "messageIdentifier": "…", "productId": "com.example.offerkit.monthly",
///                           "offerIdentifier": "WINBACK50", "signature": "v2" } },
///   { "productId": "com.example.offerkit.yearly",
///     "alternateProduct": { "messageIdentifier": "…", "productId": "com.example.offerkit.monthly",
///                           "billingPlanType": "MONTHLY" } },
///   { "message": { "messageIdentifier": "…" } }
/// ]
/// ```
public struct RetentionRules: Sendable, Hashable {
    /// The most rules an app may have: matching goes through them in order for every request.
    public static let maximumCount = 1000

    /// The rules, in the order they are tried.
    public let rules: [RetentionRule]

    /// Rules given in code.
    /// - Throws: ``RetentionRulesError/tooManyRules(path:count:limit:)`` beyond ``maximumCount``.
    public init(_ rules: [RetentionRule]) throws(RetentionRulesError) {
        guard rules.count <= Self.maximumCount else {
            throw .tooManyRules(path: "rules", count: rules.count, limit: Self.maximumCount)
        }
        self.rules = rules
    }

    /// The decision of the first rule that matches, or ``RetentionDecision/default``.
    public func decision(productId: String, userLocale: String) -> RetentionDecision {
        for rule in rules where rule.matches(productId: productId, userLocale: userLocale) {
            return rule.decision
        }
        return .default
    }

    /// The decision for a verified request.
    public func decision(for request: DecodedRealtimeRequestBody) -> RetentionDecision {
        decision(productId: request.productId, userLocale: request.userLocale)
    }
}
