import OfferAppleVerification

/// Chooses what to answer a verified real-time request: the hook for teams whose choice needs
/// their own data (a customer's history, an experiment), where rules are not enough.
///
/// The endpoint verifies the request before it asks, and signs the offer the decision names
/// after; the decider only decides. It runs under a time budget (500 ms by default,
/// ``RetentionSettings/deciderTimeBudget``): a decider that throws, or has not answered when the
/// budget is spent, gets the request answered `{}` (Apple shows the default message), and the
/// failure is logged and counted (`hookFailed`). Keep it well under Apple's 700 ms.
///
/// ```swift
/// struct WinBackDecider: RetentionDecider {
///     let rules: RuleDecider
///     func decide(for request: DecodedRealtimeRequestBody, bundleId: String) async throws -> RetentionDecision {
///         if try await Customers.isLoyal(originalTransactionId: request.originalTransactionId) {
///             return .promotionalOffer(messageIdentifier: loyalMessage, productId: request.productId,
///                                      offerIdentifier: "LOYAL50", signature: .v2)
///         }
///         return rules.decision(for: request, bundleId: bundleId)
///     }
/// }
/// ```
public protocol RetentionDecider: Sendable {
    /// What to answer `request`, a verified request for the app `bundleId`.
    func decide(for request: DecodedRealtimeRequestBody, bundleId: String) async throws -> RetentionDecision
}
