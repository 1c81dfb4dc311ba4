/// What ``AppleSignedDataVerifier/verify(_:as:)`` returns: the kind and the verified payload as
/// signed, for a caller that passes it on as JSON (the `offerkit verify-apple` command).
public struct AppleVerifiedPayload: Sendable {
    /// The kind the payload was verified and checked as.
    public let kind: AppleSignedDataKind
    /// The payload: the bytes of a JSON object, with Apple's field names.
    public let payloadBytes: [UInt8]
    /// A notification's `data.signedTransactionInfo`, verified: its payload's bytes.
    public let transactionInfoBytes: [UInt8]?
    /// A notification's `data.signedRenewalInfo`, verified: its payload's bytes.
    public let renewalInfoBytes: [UInt8]?
}
