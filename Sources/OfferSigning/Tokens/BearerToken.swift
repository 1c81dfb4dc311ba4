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
