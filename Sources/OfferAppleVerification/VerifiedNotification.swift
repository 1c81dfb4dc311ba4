/// A verified App Store Server Notification V2 with its nested signed data verified and decoded.
public struct VerifiedNotification: Equatable, Sendable {
    /// The notification.
    public var notification: ResponseBodyV2DecodedPayload
    /// `data.signedTransactionInfo`, verified and decoded; `nil` when the notification has none.
    public var transactionInfo: JWSTransactionDecodedPayload?
    /// `data.signedRenewalInfo`, verified and decoded; `nil` when the notification has none.
    public var renewalInfo: JWSRenewalInfoDecodedPayload?
}
