import Foundation

/// A signed API bearer token, for `Authorization: Bearer <token>`.
public struct BearerToken: Hashable, Sendable, CustomStringConvertible {
    /// The compact JWS.
    public let token: String
    /// The `iat` claim.
    public let issuedAt: Date
    /// The `exp` claim.
    public let expiresAt: Date

    public var description: String { token }
}

extension BearerToken {
    /// The `iat` claim in whole seconds since 1970, as signed (exact: the signer made `issuedAt`
    /// from whole seconds within ``ClaimTime``'s range).
    public var issuedAtSeconds: Int64 { Int64(issuedAt.timeIntervalSince1970) }
    /// The `exp` claim in whole seconds since 1970, as signed.
    public var expiresAtSeconds: Int64 { Int64(expiresAt.timeIntervalSince1970) }
}
