import Crypto
import Foundation
import OfferJSON

/// Signs everything StoreKit and the App Store APIs expect from a developer's server, for one
/// app: promotional offers (V2 JWS and the legacy signature), introductory-offer eligibility,
/// Advanced Commerce in-app requests, and App Store Server API tokens.
///
/// Create one signer per app and share it: it is an immutable `Sendable` value, the key is
/// parsed once, and signing takes no lock, so any number of tasks can sign at once.
///
/// ```swift
/// let key = try SigningKey(contentsOfFile: "SubscriptionKey_2X9R4HXF34.p8", keyId: "2X9R4HXF34")
/// let signer = try OfferSigner(key: key, issuerId: "57246542-96fe-1a63-e053-0824d011072a",
///                              bundleId: "com.example.app")
/// let jws = try signer.sign(PromotionalOfferRequest(productId: "com.example.monthly",
///                                                   offerIdentifier: "WINBACK50"))
/// ```
public struct OfferSigner: Sendable {
    /// The signing key and its key ID.
    public var key: SigningKey { encoder.key }
    /// The issuer ID from App Store Connect.
    public let issuerId: String
    /// The app's bundle ID.
    public let bundleId: String
    /// The clock for `iat` and legacy timestamps.
    public let clock: SigningClock
    /// The source of nonces.
    public let nonces: NonceGenerator

    private let encoder: JWSEncoder

    /// - Throws: ``CredentialError`` naming `issuerId` or `bundleId` when one is malformed.
    public init(
        key: SigningKey, issuerId: String, bundleId: String, clock: SigningClock = .system,
        nonces: NonceGenerator = .random
    ) throws(CredentialError) {
        try CredentialValidation.validateIssuerId(issuerId)
        try CredentialValidation.validateBundleId(bundleId)
        self.issuerId = issuerId
        self.bundleId = bundleId
        self.clock = clock
        self.nonces = nonces
        self.encoder = JWSEncoder(key: key)
    }

    // MARK: - StoreKit compact JWS

    /// Signs a promotional offer (V2) as a compact JWS.
    /// - Parameters:
    ///   - request: the offer to sign.
    ///   - nonce: overrides the signer's nonce generator for this signature.
    ///   - issuedAt: overrides the signer's clock for this signature.
    public func sign(_ request: PromotionalOfferRequest, nonce: UUID? = nil, issuedAt: Date? = nil) throws -> CompactJWS
    {
        try signRequest(request, nonce: nonce, issuedAt: issuedAt)
    }

    /// Signs an introductory-offer eligibility statement as a compact JWS.
    public func sign(
        _ request: IntroductoryOfferEligibilityRequest, nonce: UUID? = nil, issuedAt: Date? = nil
    ) throws -> CompactJWS {
        try signRequest(request, nonce: nonce, issuedAt: issuedAt)
    }

    /// Signs an Advanced Commerce in-app request as a compact JWS; the request travels,
    /// base64-encoded, in the `request` claim.
    public func sign(
        _ request: AdvancedCommerce.InAppRequest, nonce: UUID? = nil, issuedAt: Date? = nil
    ) throws -> CompactJWS {
        try signRequest(request, nonce: nonce, issuedAt: issuedAt)
    }

    /// The exact payload JSON that ``sign(_:nonce:issuedAt:)`` signs for these inputs.
    func payload<Request: JWSRequestClaims>(_ request: Request, nonce: UUID, issuedAt: Int64) -> [UInt8] {
        var writer = JSONWriter(capacity: 320)
        writer.beginObject()
        writer.member("iss", issuerId)
        writer.member("iat", issuedAt)
        writer.member("aud", Request.kind.audience)
        writer.member("bid", bundleId)
        writer.member("nonce", nonce)
        request.writeClaims(into: &writer)
        writer.endObject()
        return writer.bytes
    }

    private func signRequest<Request: JWSRequestClaims>(
        _ request: Request, nonce: UUID?, issuedAt: Date?
    ) throws -> CompactJWS {
        try request.validate()
        let nonce = nonce ?? nonces.next()
        guard nonce.isVersion4 else {
            throw RequestValidationError.invalidFormat(field: "nonce", expected: "a random UUID (version 4)")
        }
        let iat = try ClaimTime.seconds(issuedAt ?? clock.now(), field: "iat")
        let body = payload(request, nonce: nonce, issuedAt: iat)
        return CompactJWS(
            serialization: try encoder.sign(payload: body), nonce: nonce, issuedAt: ClaimTime.date(seconds: iat))
    }

    // MARK: - Legacy promotional offer signature

    /// Signs a promotional offer the legacy way (signature version 1), for
    /// `Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`,
    /// `SKPaymentDiscount` and Retention Messaging's `promotionalOfferSignatureV1`.
    /// - Parameters:
    ///   - request: the offer to sign.
    ///   - nonce: a fresh random UUID when `nil`.
    ///   - timestamp: UNIX time in milliseconds; the signer's clock when `nil`.
    public func sign(
        _ request: LegacyPromotionalOfferRequest, nonce: UUID? = nil, timestamp: Int64? = nil
    ) throws -> LegacyPromotionalOfferSignature {
        try request.validate()
        let nonce = nonce ?? nonces.next()
        let timestamp =
            if let timestamp {
                try ClaimTime.checkMilliseconds(timestamp, field: "timestamp")
            } else {
                try ClaimTime.milliseconds(clock.now(), field: "timestamp")
            }
        let appAccountToken = request.normalizedAppAccountToken
        let message = request.message(
            bundleId: bundleId, keyId: key.keyId, appAccountToken: appAccountToken, nonce: nonce, timestamp: timestamp)
        let signature: P256.Signing.ECDSASignature
        do {
            signature = try key.privateKey.signature(for: message)
        } catch {
            throw SigningError.signingFailed
        }
        return LegacyPromotionalOfferSignature(
            keyId: key.keyId, nonce: nonce, timestamp: timestamp,
            signature: Base64.standardString(ECDSADER.encode(raw: signature.rawRepresentation)),
            productId: request.productId,
            offerIdentifier: request.offerIdentifier, appAccountToken: appAccountToken)
    }

    // MARK: - App Store Server API token

    /// The longest lifetime Apple accepts for an App Store Server API token, in seconds.
    public static let serverAPITokenMaximumLifetime = 3600

    /// A bearer token for the App Store Server API (claims `iss`, `iat`, `exp`, `aud`, `bid`).
    /// - Parameters:
    ///   - lifetime: seconds until `exp`, 1…3600; 300 (5 minutes) by default.
    ///   - issuedAt: overrides the signer's clock for this token (`iat`).
    public func serverAPIToken(lifetime: Int = 300, issuedAt: Date? = nil) throws -> BearerToken {
        guard (1...Self.serverAPITokenMaximumLifetime).contains(lifetime) else {
            throw RequestValidationError.outOfRange(
                field: "lifetime", expected: "1 to 3600 seconds (60 minutes), found \(lifetime)")
        }
        let iat = try ClaimTime.seconds(issuedAt ?? clock.now(), field: "iat")
        var writer = JSONWriter(capacity: 160)
        writer.beginObject()
        writer.member("iss", issuerId)
        writer.member("iat", iat)
        writer.member("exp", iat + Int64(lifetime))
        writer.member("aud", JWSKind.serverAPIToken.audience)
        writer.member("bid", bundleId)
        writer.endObject()
        return BearerToken(
            token: try encoder.sign(payload: writer.bytes), issuedAt: ClaimTime.date(seconds: iat),
            expiresAt: ClaimTime.date(seconds: iat + Int64(lifetime)))
    }
}
