import Foundation
import OfferJSON

/// A signed JWS in compact serialization (`header.payload.signature`, base64url, ES256).
public struct CompactJWS: Hashable, Sendable, CustomStringConvertible {
    /// The compact serialization, ready for StoreKit or an `Authorization: Bearer` header.
    public let serialization: String
    /// The nonce in the claims (StoreKit requests only).
    public let nonce: UUID?
    /// The `iat` claim.
    public let issuedAt: Date

    public var description: String { serialization }

    /// The nonce in the lower-case form that was signed.
    public var nonceString: String? { nonce?.lowercasedString }

    /// The base64url header segment.
    public var headerSegment: Substring { segments[0] }
    /// The base64url payload segment.
    public var payloadSegment: Substring { segments[1] }
    /// The base64url signature segment (raw `r || s`, 64 bytes).
    public var signatureSegment: Substring { segments[2] }
    /// `header.payload`: the bytes that were signed.
    public var signingInput: Substring {
        serialization[..<(serialization.lastIndex(of: ".") ?? serialization.startIndex)]
    }

    private var segments: [Substring] { serialization.split(separator: ".", omittingEmptySubsequences: false) }
}

extension CompactJWS {
    /// The `iat` claim in whole seconds since 1970, as signed (exact: the signer made `issuedAt`
    /// from whole seconds within ``ClaimTime``'s range).
    public var issuedAtSeconds: Int64 { Int64(issuedAt.timeIntervalSince1970) }
}
