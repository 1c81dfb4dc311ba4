/// Why a request to the Get Retention Message endpoint was refused (answered 401): a metric
/// label and a log value, never the request's content. Checks run cheapest first, so a request
/// that fails several is refused for the first.
public enum RetentionRejection: String, Sendable, Hashable, CaseIterable {
    /// The body is over ``RealtimeRequestBody/maximumBytes`` (the service answers 413 instead).
    case bodyTooLarge
    /// The body is not `{"signedPayload": "<string>"}`.
    case malformedBody
    /// The `signedPayload` is not a compact JWS as Apple signs it: header `alg` `ES256`, three
    /// `x5c` certificates, a JSON payload, a 64-byte signature.
    case malformedJWS
    /// The payload is not a `DecodedRealtimeRequestBody`.
    case payloadUnreadable
    /// No configured app has the payload's `appAppleId`.
    case unknownApp
    /// The payload's `environment` is not one the endpoint accepts.
    case environmentNotAccepted
    /// The payload's `signedDate` is older than `maxRequestAgeSeconds` or more than 60 s ahead.
    case stale
    /// The certificate chain does not verify to a trusted root with Apple's extensions, valid at
    /// the `signedDate`.
    case untrustedChain
    /// The signature does not verify with the leaf certificate's key.
    case signatureInvalid
}
