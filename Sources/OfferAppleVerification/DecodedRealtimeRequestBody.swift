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

    /// A request as Apple's fields give it (for tests of a decider).
    public init(
        originalTransactionId: String, appAppleId: Int64, productId: String, userLocale: String,
        requestIdentifier: UUID, signedDate: Int64, environment: String
    ) {
        self.originalTransactionId = originalTransactionId
        self.appAppleId = appAppleId
        self.productId = productId
        self.userLocale = userLocale
        self.requestIdentifier = requestIdentifier
        self.signedDate = signedDate
        self.environment = environment
    }
}
