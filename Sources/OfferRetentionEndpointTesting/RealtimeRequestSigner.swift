import Foundation
import OfferAppleVerification
import OfferJSON

/// Signs real-time requests on a ``RetentionTestChain`` as the App Store signs them, and wraps them
/// in the body it posts to the Get Retention Message endpoint: `{"signedPayload":"<JWS with x5c>"}`.
///
/// ```swift
/// let request = DecodedRealtimeRequestBody(
///     originalTransactionId: "2000000900000001", appAppleId: 1234567890,
///     productId: "com.example.offerkit.monthly", userLocale: "en-US", requestIdentifier: UUID(),
///     signedDate: RealtimeRequestSigner.now(), environment: "Sandbox")
/// let body = try RealtimeRequestSigner(chain: chain).body(for: request)
/// ```
public struct RealtimeRequestSigner: Sendable {
    /// The chain whose leaf signs.
    public let chain: RetentionTestChain

    /// A signer for `chain`.
    public init(chain: RetentionTestChain) { self.chain = chain }

    /// The request's JSON object, members in Apple's documented order.
    public static func payload(_ request: DecodedRealtimeRequestBody) -> [UInt8] {
        var writer = JSONWriter(capacity: 320)
        writer.beginObject()
        writer.member("originalTransactionId", request.originalTransactionId)
        writer.member("appAppleId", request.appAppleId)
        writer.member("productId", request.productId)
        writer.member("userLocale", request.userLocale)
        writer.member("requestIdentifier", request.requestIdentifier)
        writer.member("environment", request.environment)
        writer.member("signedDate", request.signedDate)
        writer.endObject()
        return writer.bytes
    }

    /// The request signed: a compact JWS (ES256, the chain in `x5c`).
    public func signedPayload(for request: DecodedRealtimeRequestBody) throws -> String {
        try chain.sign(Self.payload(request))
    }

    /// The body the App Store posts: `{"signedPayload":"<JWS>"}`.
    public func body(for request: DecodedRealtimeRequestBody) throws -> [UInt8] {
        Self.body(signedPayload: try signedPayload(for: request))
    }

    /// `{"signedPayload":"<jws>"}` around any JWS.
    public static func body(signedPayload jws: String) -> [UInt8] {
        var writer = JSONWriter(capacity: jws.utf8.count + 24)
        writer.beginObject()
        writer.member("signedPayload", jws)
        writer.endObject()
        return writer.bytes
    }

    /// Milliseconds since 1970 now: a request's `signedDate`.
    public static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
}
