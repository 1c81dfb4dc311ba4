import OfferJSON

/// How a promotional offer in an answer is signed: `promotionalOfferSignatureV2` (a compact JWS) or
/// `promotionalOfferSignatureV1` (the legacy signature object).
public enum PromotionalOfferSignatureVersion: String, Sendable, Hashable, CaseIterable, EnumeratedValue {
    /// The legacy signature (docs/formats.md §2): `encodedSignature`, `productId`, `nonce`, `timestamp`,
    /// `keyId`, `offerIdentifier`.
    case v1
    /// The promotional-offer compact JWS (docs/formats.md §3), with `transactionId` = the request's
    /// `originalTransactionId`.
    case v2
}
