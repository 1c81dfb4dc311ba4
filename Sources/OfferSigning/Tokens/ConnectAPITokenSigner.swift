import Foundation
import OfferJSON

/// Signs App Store Connect API bearer tokens with a team or individual API key
/// (an App Store Connect API key, not the In-App Purchase key; the format is the same).
///
/// ```swift
/// let signer = ConnectAPITokenSigner(key: apiKey, issuer: .team(issuerId: "57246542-…"))
/// let token = try signer.token(lifetime: 600, scope: ["GET /v1/apps"])
/// ```
public struct ConnectAPITokenSigner: Sendable {
    /// Who the token speaks for.
    public enum Issuer: Hashable, Sendable {
        /// A team key: `iss` = the issuer ID.
        case team(issuerId: String)
        /// An individual key: `sub` = `user`, no `iss`.
        case individual
    }

    /// The longest lifetime Apple accepts for an App Store Connect API token, in seconds.
    public static let maximumLifetime = 1200

    public let issuer: Issuer
    public let clock: SigningClock
    private let encoder: JWSEncoder

    /// - Throws: ``CredentialError/invalidIssuerId(_:)`` for a malformed team issuer ID.
    public init(key: SigningKey, issuer: Issuer, clock: SigningClock = .system) throws(CredentialError) {
        if case .team(let issuerId) = issuer { try CredentialValidation.validateIssuerId(issuerId) }
        self.issuer = issuer
        self.clock = clock
        self.encoder = JWSEncoder(key: key)
    }

    /// A token with claims `iss` (or `sub`), `iat`, `exp`, `aud` = `appstoreconnect-v1`, and
    /// `scope` when given.
    /// - Parameters:
    ///   - lifetime: seconds until `exp`, 1…1200; 900 (15 minutes) by default, leaving room for
    ///     clock skew under Apple's 20-minute limit.
    ///   - scope: operations the token may perform, e.g. `GET /v1/apps?filter[platform]=IOS`.
    ///   - issuedAt: overrides the signer's clock for this token (`iat`).
    public func token(lifetime: Int = 900, scope: [String] = [], issuedAt: Date? = nil) throws -> BearerToken {
        guard (1...Self.maximumLifetime).contains(lifetime) else {
            throw RequestValidationError.outOfRange(
                field: "lifetime", expected: "1 to 1200 seconds (20 minutes), found \(lifetime)")
        }
        for (index, entry) in scope.enumerated() { try Check.identifier(entry, "scope[\(index)]") }
        let iat = try ClaimTime.seconds(issuedAt ?? clock.now(), field: "iat")
        var writer = JSONWriter(capacity: 160)
        writer.beginObject()
        switch issuer {
        case .team(let issuerId): writer.member("iss", issuerId)
        case .individual: writer.member("sub", "user")
        }
        writer.member("iat", iat)
        writer.member("exp", iat + Int64(lifetime))
        writer.member("aud", JWSKind.connectAPIToken.audience)
        if !scope.isEmpty {
            writer.key("scope")
            writer.beginArray()
            for entry in scope { writer.string(entry) }
            writer.endArray()
        }
        writer.endObject()
        return BearerToken(
            token: try encoder.sign(payload: writer.bytes), issuedAt: ClaimTime.date(seconds: iat),
            expiresAt: ClaimTime.date(seconds: iat + Int64(lifetime)))
    }
}
