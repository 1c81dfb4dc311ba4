import Foundation
import OfferAppleVerification
import OfferRetentionEndpointTesting

/// The payload of a Retention Messaging real-time request (`DecodedRealtimeRequestBody`), as the
/// App Store signs it, for the tests.
public struct RealtimeRequestPayload: Sendable {
    public var originalTransactionId: String
    public var appAppleId: Int64
    public var productId: String
    public var userLocale: String
    public var requestIdentifier: UUID
    public var environment: String
    /// Milliseconds since 1970.
    public var signedDate: Int64

    public init(
        originalTransactionId: String = "2000000900000001", appAppleId: Int64 = 1_234_567_890,
        productId: String = "com.example.offerkit.monthly", userLocale: String = "en-US",
        requestIdentifier: UUID = UUID(), environment: String = "Sandbox",
        signedDate: Int64 = RealtimeRequestSigner.now()
    ) {
        self.originalTransactionId = originalTransactionId
        self.appAppleId = appAppleId
        self.productId = productId
        self.userLocale = userLocale
        self.requestIdentifier = requestIdentifier
        self.environment = environment
        self.signedDate = signedDate
    }

    /// The request, as `OfferAppleVerification` reads it.
    public var request: DecodedRealtimeRequestBody {
        DecodedRealtimeRequestBody(
            originalTransactionId: originalTransactionId, appAppleId: appAppleId, productId: productId,
            userLocale: userLocale, requestIdentifier: requestIdentifier, signedDate: signedDate,
            environment: environment)
    }

    /// The JSON object, members in Apple's documented order.
    public var json: [UInt8] { RealtimeRequestSigner.payload(request) }
}
