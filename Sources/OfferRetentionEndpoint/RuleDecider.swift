import OfferAppleVerification

/// The decider of a configuration: each app's ``RetentionRules``, first match wins; an app
/// without rules, or a request no rule matches, gets ``RetentionDecision/default``.
public struct RuleDecider: RetentionDecider {
    /// The rules of each app, by bundle ID.
    public let rules: [String: RetentionRules]

    public init(_ rules: [String: RetentionRules]) {
        self.rules = rules
    }

    /// The decision for `request` of the app `bundleId`, at once.
    public func decision(for request: DecodedRealtimeRequestBody, bundleId: String) -> RetentionDecision {
        rules[bundleId]?.decision(for: request) ?? .default
    }

    public func decide(for request: DecodedRealtimeRequestBody, bundleId: String) async throws -> RetentionDecision {
        decision(for: request, bundleId: bundleId)
    }
}
