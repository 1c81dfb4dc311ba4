import Foundation

/// A Retention Messaging real-time request (the `signedPayload` Apple posts to the Get Retention
/// Message endpoint), with Apple's field names. Every field is required, as in Apple's libraries.
/// It names the app only by `appAppleId`, which is checked in production.
public struct DecodedRealtimeRequestBody: Codable, Equatable, Sendable {
    /// The subscription's original transaction.
    public var originalTransactionId: String
    /// The app's App Apple ID.
    public var appAppleId: Int64
    /// The subscription the customer looks at cancelling.
    public var productId: String
    /// The customer's locale, such as `en-US`.
    public var userLocale: String
    /// The request's identifier: the same for a retried request.
    public var requestIdentifier: UUID
    /// Milliseconds since 1970; the certificate chain is checked at this time.
    public var signedDate: Int64
    /// `Sandbox` or `Production`.
    public var environment: String
}
