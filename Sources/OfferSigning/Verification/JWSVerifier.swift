import Crypto
import Foundation
import OfferJSON

/// Verifies what OfferKit (or anyone) signs: compact ES256 JWS and legacy promotional offer
/// signatures, against a P-256 public key.
///
/// Verification is strict: the header must be exactly `alg` = `ES256`, `kid`, `typ` = `JWT`, and
/// the claims exactly those the JWS's kind requires, with the right types (integer `iat`,
/// lower-case UUID v4 `nonce`, string `aud`, no `exp` on StoreKit requests). Then every credential
/// in ``expected`` is compared with what the JWS (or legacy signature) names: a verifier made
/// with the key ID, issuer ID and bundle ID of your app refuses a JWS signed with the same key for
/// another app or with another `kid`.
///
/// ```swift
/// let verifier = JWSVerifier(
///     key: key, expected: ExpectedCredentials(keyId: "2X9R4HXF34", issuerId: issuerId, bundleId: "com.example.app"))
/// let verified = try verifier.verify(jws, as: .promotionalOffer)
/// ```
public struct JWSVerifier: Sendable {
    public let publicKey: P256.Signing.PublicKey
    /// The credentials every JWS and legacy signature must name; none by default.
    public let expected: ExpectedCredentials
    /// The clock that `iat` and legacy timestamps are checked against: they must be from
    /// 2000-01-01 on and at most a day ahead of it (``ClaimTime``).
    public let clock: SigningClock

    /// A verifier for `publicKey`, expecting the credentials in `expected`.
    public init(
        publicKey: P256.Signing.PublicKey, expected: ExpectedCredentials = ExpectedCredentials(),
        clock: SigningClock = .system
    ) {
        self.publicKey = publicKey
        self.expected = expected
        self.clock = clock
    }

    /// A verifier for the public half of `key`, expecting the credentials in `expected` (the
    /// key's own ID is compared only when `expected` holds it).
    public init(key: SigningKey, expected: ExpectedCredentials = ExpectedCredentials(), clock: SigningClock = .system) {
        self.init(publicKey: key.publicKey, expected: expected, clock: clock)
    }

    /// Reads a `-----BEGIN PUBLIC KEY-----` PEM document.
    public init(
        publicKeyPEM: String, expected: ExpectedCredentials = ExpectedCredentials(), clock: SigningClock = .system
    ) throws(VerificationError) {
        let publicKey: P256.Signing.PublicKey
        do {
            publicKey = try P256.Signing.PublicKey(pemRepresentation: publicKeyPEM)
        } catch {
            throw .invalidPublicKey("expected a P-256 public key in PEM (-----BEGIN PUBLIC KEY-----)")
        }
        self.init(publicKey: publicKey, expected: expected, clock: clock)
    }

    /// Verifies the signature, header and claims of a compact JWS of any kind, then compares
    /// ``expected`` with its `kid`, `iss` and `bid`.
    /// - Parameters:
    ///   - compact: the compact serialization (`header.payload.signature`); surrounding white space is ignored.
    ///   - kind: when given, the JWS must be of this kind.
    /// - Throws: ``VerificationError``; ``VerificationError/credentialMismatch(_:)`` when the JWS
    ///   verified but names other credentials,
    ///   ``VerificationError/credentialNotApplicable(_:reason:)`` when an expected credential is
    ///   one this JWS does not carry (a bundle ID for an App Store Connect API token).
    public func verify(_ compact: String, as kind: JWSKind? = nil) throws(VerificationError) -> VerifiedJWS {
        let parts = compact.trimmingCharacters(in: " \t\r\n").split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("expected 3 segments separated by '.', found \(parts.count)") }
        guard let headerBytes = Base64.decode(Array(parts[0].utf8), urlSafe: true),
            let payloadBytes = Base64.decode(Array(parts[1].utf8), urlSafe: true),
            let signatureBytes = Base64.decode(Array(parts[2].utf8), urlSafe: true)
        else { throw .malformed("a segment is not base64url") }
        guard !parts.contains(where: { $0.contains("=") }) else {
            throw .malformed("base64url segments must not be padded")
        }

        let header = try parseHeader(headerBytes)
        guard signatureBytes.count == 64 else {
            throw .malformed(
                "the ES256 signature must be 64 bytes (raw r || s), found \(signatureBytes.count)"
                    + (signatureBytes.first == 0x30 ? "; it looks DER-encoded" : ""))
        }
        let signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            publicKey.isValidSignature(signature, for: signingInput)
        else { throw .signatureMismatch }

        let payload: JSONValue
        do {
            payload = try JSONValue.parse(payloadBytes)
        } catch {
            throw .malformed("the payload is not valid JSON (\(error.message))")
        }
        let detected = try ClaimRules.kind(of: payload)
        if let kind, kind != detected { throw .wrongKind(expected: kind, actual: detected) }
        let (claims, request) = try ClaimRules.check(payload, as: detected, now: clock.now())
        try expected.compare(
            found: { credential in
                switch credential {
                case .keyId: ("kid", header.kid)
                case .issuerId: ("iss", claims.iss)
                case .bundleId: ("bid", claims.bid)
                }
            },
            notCarried: { credential in
                switch (credential, detected) {
                case (.bundleId, .connectAPIToken):
                    "an App Store Connect API token names no app (it has no bid claim)"
                case (.issuerId, .connectAPIToken) where claims.iss == nil:
                    "this App Store Connect API token is an individual key's (sub \"user\"): it has no iss claim"
                default: nil
                }
            })
        return VerifiedJWS(
            kind: detected, header: header, claims: claims, advancedCommerceRequest: request,
            headerJSON: String(decoding: headerBytes, as: UTF8.self),
            payloadJSON: String(decoding: payloadBytes, as: UTF8.self))
    }

    /// Verifies a legacy promotional offer signature over the seven signed fields, then compares
    /// ``expected`` with its `keyId` and with `bundleId`.
    /// - Parameters:
    ///   - signature: the signature and the fields it signs, as the app sends them.
    ///   - bundleId: the bundle ID the signature was made for (part of the signed message).
    /// - Throws: ``VerificationError``; ``VerificationError/credentialNotApplicable(_:reason:)``
    ///   when an issuer ID is expected (a legacy signature signs none).
    public func verify(_ signature: LegacyPromotionalOfferSignature, bundleId: String) throws(VerificationError) {
        if let problem = ClaimTime.issuedAtProblem(signature.timestamp, now: clock.now(), perSecond: 1000) {
            throw .invalidClaim(field: "timestamp", expected: problem)
        }
        let request = LegacyPromotionalOfferRequest(
            productId: signature.productId, offerIdentifier: signature.offerIdentifier,
            appAccountToken: signature.appAccountToken)
        let message = request.message(
            bundleId: bundleId, keyId: signature.keyId, appAccountToken: request.normalizedAppAccountToken,
            nonce: signature.nonce, timestamp: signature.timestamp)
        guard let der = Base64.decode(Array(signature.signature.utf8), urlSafe: false) else {
            throw .malformed("the legacy signature is not standard base64")
        }
        guard let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: der),
            publicKey.isValidSignature(ecdsa, for: message)
        else { throw .signatureMismatch }
        try expected.compare(
            found: { credential in
                switch credential {
                case .keyId: ("keyId", signature.keyId)
                case .bundleId: ("bundleId", bundleId)
                case .issuerId: ("iss", nil)
                }
            },
            notCarried: { credential in
                credential == .issuerId ? "a legacy promotional offer signature signs no issuer ID" : nil
            })
    }

    private func parseHeader(_ bytes: [UInt8]) throws(VerificationError) -> VerifiedJWS.Header {
        let header: JSONValue
        do {
            header = try JSONValue.parse(bytes)
        } catch {
            throw .malformed("the header is not valid JSON (\(error.message))")
        }
        guard case .object = header else { throw .malformed("the header is not a JSON object") }
        if let extra = header.keys.first(where: { !["alg", "kid", "typ"].contains($0) }) {
            throw .invalidHeader(field: extra, expected: "no members besides alg, kid and typ")
        }
        guard case .string(let alg)? = header["alg"], alg == "ES256" else {
            throw .invalidHeader(field: "alg", expected: "\"ES256\"")
        }
        guard case .string(let kid)? = header["kid"], (try? CredentialValidation.validateKeyId(kid)) != nil else {
            throw .invalidHeader(field: "kid", expected: "a key ID of 10 upper-case letters or digits")
        }
        guard case .string(let typ)? = header["typ"], typ == "JWT" else {
            throw .invalidHeader(field: "typ", expected: "\"JWT\"")
        }
        return VerifiedJWS.Header(alg: alg, kid: kid, typ: typ)
    }
}
