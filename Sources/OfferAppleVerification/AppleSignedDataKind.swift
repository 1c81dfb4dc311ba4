import OfferJSON

/// What an Apple-signed compact JWS holds, which decides the payload type and the checks made on it.
public enum AppleSignedDataKind: String, Sendable, CaseIterable, EnumeratedValue {
    /// A transaction (`signedTransactionInfo`, `JWSTransactionDecodedPayload`).
    case transaction
    /// Subscription renewal information (`signedRenewalInfo`, `JWSRenewalInfoDecodedPayload`).
    case renewalInfo = "renewal-info"
    /// An App Store Server Notification V2 (`signedPayload`, `ResponseBodyV2DecodedPayload`).
    case notification
    /// A Retention Messaging real-time request (`signedPayload`, `DecodedRealtimeRequestBody`).
    case realtimeRequest = "realtime-request"

    /// Apple's name of the decoded payload type.
    public var payloadTypeName: String {
        switch self {
        case .transaction: "JWSTransactionDecodedPayload"
        case .renewalInfo: "JWSRenewalInfoDecodedPayload"
        case .notification: "ResponseBodyV2DecodedPayload"
        case .realtimeRequest: "DecodedRealtimeRequestBody"
        }
    }
}
