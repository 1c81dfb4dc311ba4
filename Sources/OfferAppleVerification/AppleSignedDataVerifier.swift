import Crypto
import Foundation
import OfferJSON
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

/// Verifies and decodes what the App Store signs: transactions, renewal information, App Store
/// Server Notifications V2 and Retention Messaging real-time requests (the counterpart of
/// `SignedDataVerifier` in Apple's App Store Server libraries, with online checks off).
///
/// A JWS is accepted when:
/// - its three parts are canonical base64url (no `=` padding, unused trailing bits zero), its
///   header's `alg` is `ES256`, it has no `crit` or `b64` member, and its `x5c` holds exactly three
///   certificates (leaf first) (``AppleCompactJWS``);
/// - the leaf and the intermediate verify, with swift-certificates' `Verifier` (RFC 5280), to one
///   of the trusted roots (Apple Root CA – G3 unless others are given), at the payload's
///   `signedDate` (the current time when it has none); the intermediate carries extension
///   1.2.840.113635.100.6.2.1 and the leaf 1.2.840.113635.100.6.11.1; key usage follows RFC 5280
///   §4.2.1.3: the intermediate and the root assert `keyCertSign`, the leaf, if it has keyUsage,
///   `digitalSignature` and not `keyCertSign`;
/// - the signature verifies with the leaf's P-256 key (in either of its two equivalent forms,
///   low-S and high-S: the App Store signs with both);
/// - the payload decodes as Apple's type and names the expected app (bundle ID, and in production
///   App Apple ID) and environment, as Apple's libraries check them for each kind.
///
/// Unlike Apple's libraries, the signature and chain are verified in every environment: Apple's
/// libraries skip them for `Xcode` and `LocalTesting` data, which Xcode signs with its own
/// certificate; give that certificate's chain as trusted roots to verify it here.
/// No OCSP (revocation) check is made. A chain verified once is remembered (by its certificates'
/// DER bytes, with the dates all of them are valid), so that the next JWS signed with it skips the
/// path's signature checks; a refusal is always the one a full verification gives.
public struct AppleSignedDataVerifier: Sendable {
    /// The roots a chain must end in.
    public let rootCertificates: [Certificate]
    /// The bundle ID transactions and notifications must name; `nil` only to verify real-time
    /// requests and renewal information, which name none.
    public let bundleId: String?
    /// The environment every payload must name.
    public let environment: AppleEnvironment
    /// The App Apple ID notifications and real-time requests must name in production.
    public let appAppleId: Int64?
    /// The chains this verifier (and its copies) already verified.
    private let chains = VerifiedChainCache()

    /// Makes a verifier.
    /// - Parameters:
    ///   - rootCertificates: the trusted roots; Apple Root CA – G3 by default
    ///     (``AppleRootCertificates`` reads others from PEM or DER).
    ///   - bundleId: the app's bundle ID.
    ///   - environment: the environment the payloads must be from.
    ///   - appAppleId: the app's App Apple ID; required in production.
    /// - Throws: ``AppleVerificationError/noTrustedRoots`` or
    ///   ``AppleVerificationError/appAppleIdRequired``.
    public init(
        rootCertificates: [Certificate] = [AppleRootCertificates.appleRootCAG3], bundleId: String?,
        environment: AppleEnvironment, appAppleId: Int64? = nil
    ) throws(AppleVerificationError) {
        guard !rootCertificates.isEmpty else { throw .noTrustedRoots }
        if environment == .production, appAppleId == nil { throw .appAppleIdRequired }
        self.rootCertificates = rootCertificates
        self.bundleId = bundleId
        self.environment = environment
        self.appAppleId = appAppleId
    }

    /// How many verified chains this verifier remembers (for tests).
    package var rememberedChains: Int { chains.count }

    /// Verifies and decodes a signed transaction; checks its bundle ID and environment.
    public func verifyTransaction(_ jws: String) async throws(AppleVerificationError) -> JWSTransactionDecodedPayload {
        let (transaction, _) = try await verifiedTransaction(jws)
        return transaction
    }

    /// Verifies and decodes signed renewal information; checks its environment.
    public func verifyRenewalInfo(_ jws: String) async throws(AppleVerificationError) -> JWSRenewalInfoDecodedPayload {
        let (renewalInfo, _) = try await verifiedRenewalInfo(jws)
        return renewalInfo
    }

    /// Verifies and decodes a notification V2, and the signed transaction and renewal information
    /// it carries; checks the app (bundle ID; App Apple ID in production) and environment of each.
    public func verifyNotification(_ jws: String) async throws(AppleVerificationError) -> VerifiedNotification {
        let (notification, _, transaction, renewalInfo) = try await verifiedNotification(jws)
        return VerifiedNotification(
            notification: notification, transactionInfo: transaction?.0, renewalInfo: renewalInfo?.0)
    }

    /// Verifies and decodes a Retention Messaging real-time request; checks its environment and,
    /// in production, its App Apple ID.
    public func verifyRealtimeRequest(_ jws: String) async throws(AppleVerificationError) -> DecodedRealtimeRequestBody
    {
        try await verifyRealtimeRequest(try AppleCompactJWS(jws))
    }

    /// ``verifyRealtimeRequest(_:)-(String)`` of a JWS already parsed (the Get Retention Message
    /// endpoint reads the payload's app first, to pick the verifier).
    package func verifyRealtimeRequest(_ signed: AppleCompactJWS) async throws(AppleVerificationError)
        -> DecodedRealtimeRequestBody
    {
        let request = try await verified(signed, as: DecodedRealtimeRequestBody.self)
        if environment == .production, let appAppleId, request.appAppleId != appAppleId {
            throw .appAppleIdMismatch(expected: appAppleId, found: request.appAppleId)
        }
        try check(environment: request.environment)
        return request
    }

    /// Verifies `jws` as `kind` and returns its payload as signed (and, for a notification, the
    /// payloads of its nested signed data), with the same checks as the typed methods.
    public func verify(_ jws: String, as kind: AppleSignedDataKind) async throws(AppleVerificationError)
        -> AppleVerifiedPayload
    {
        switch kind {
        case .transaction:
            let (_, signed) = try await verifiedTransaction(jws)
            return AppleVerifiedPayload(
                kind: kind, payloadBytes: signed.payloadBytes, transactionInfoBytes: nil, renewalInfoBytes: nil)
        case .renewalInfo:
            let (_, signed) = try await verifiedRenewalInfo(jws)
            return AppleVerifiedPayload(
                kind: kind, payloadBytes: signed.payloadBytes, transactionInfoBytes: nil, renewalInfoBytes: nil)
        case .notification:
            let (_, signed, transaction, renewalInfo) = try await verifiedNotification(jws)
            return AppleVerifiedPayload(
                kind: kind, payloadBytes: signed.payloadBytes, transactionInfoBytes: transaction?.1.payloadBytes,
                renewalInfoBytes: renewalInfo?.1.payloadBytes)
        case .realtimeRequest:
            _ = try await verifyRealtimeRequest(jws)
            let signed = try AppleCompactJWS(jws)
            return AppleVerifiedPayload(
                kind: kind, payloadBytes: signed.payloadBytes, transactionInfoBytes: nil, renewalInfoBytes: nil)
        }
    }

    /// Verifies the chain and the signature of `jws` only, with no check of its payload.
    /// - Returns: the parsed JWS, whose payload is now known to be signed by the App Store.
    public func verifySignature(_ jws: String) async throws(AppleVerificationError) -> AppleCompactJWS {
        let signed = try AppleCompactJWS(jws)
        try await verifyChain(of: signed, at: try Self.signedDate(of: signed))
        try Self.verifySignature(of: signed)
        return signed
    }

    // MARK: - The kinds

    private func verifiedTransaction(_ jws: String) async throws(AppleVerificationError)
        -> (JWSTransactionDecodedPayload, AppleCompactJWS)
    {
        guard let bundleId else { throw .bundleIdRequired(kind: .transaction) }
        let (transaction, signed) = try await verified(jws, as: JWSTransactionDecodedPayload.self)
        guard transaction.bundleId == bundleId else {
            throw .bundleIdMismatch(expected: bundleId, found: transaction.bundleId)
        }
        try check(environment: transaction.environment)
        return (transaction, signed)
    }

    private func verifiedRenewalInfo(_ jws: String) async throws(AppleVerificationError)
        -> (JWSRenewalInfoDecodedPayload, AppleCompactJWS)
    {
        let (renewalInfo, signed) = try await verified(jws, as: JWSRenewalInfoDecodedPayload.self)
        try check(environment: renewalInfo.environment)
        return (renewalInfo, signed)
    }

    private func verifiedNotification(_ jws: String) async throws(AppleVerificationError) -> (
        ResponseBodyV2DecodedPayload, AppleCompactJWS, (JWSTransactionDecodedPayload, AppleCompactJWS)?,
        (JWSRenewalInfoDecodedPayload, AppleCompactJWS)?
    ) {
        guard let bundleId else { throw .bundleIdRequired(kind: .notification) }
        let (notification, signed) = try await verified(jws, as: ResponseBodyV2DecodedPayload.self)
        // The app and environment come from whichever part names them, in Apple's order.
        var app: (bundleId: String?, appAppleId: Int64?, environment: String?) = (nil, nil, nil)
        if let data = notification.data {
            app = (data.bundleId, data.appAppleId, data.environment)
        } else if let summary = notification.summary {
            app = (summary.bundleId, summary.appAppleId, summary.environment)
        } else if let token = notification.externalPurchaseToken {
            let sandbox = token.externalPurchaseId?.hasPrefix("SANDBOX") ?? false
            app = (token.bundleId, token.appAppleId, (sandbox ? AppleEnvironment.sandbox : .production).rawValue)
        } else if let appData = notification.appData {
            app = (appData.bundleId, appData.appAppleId, appData.environment)
        }
        guard app.bundleId == bundleId else { throw .bundleIdMismatch(expected: bundleId, found: app.bundleId) }
        if environment == .production, let appAppleId, app.appAppleId != appAppleId {
            throw .appAppleIdMismatch(expected: appAppleId, found: app.appAppleId)
        }
        try check(environment: app.environment)
        var transaction: (JWSTransactionDecodedPayload, AppleCompactJWS)?
        var renewalInfo: (JWSRenewalInfoDecodedPayload, AppleCompactJWS)?
        if let nested = notification.data?.signedTransactionInfo {
            do {
                transaction = try await verifiedTransaction(nested)
            } catch {
                throw .nested(field: "data.signedTransactionInfo", error)
            }
        }
        if let nested = notification.data?.signedRenewalInfo {
            do {
                renewalInfo = try await verifiedRenewalInfo(nested)
            } catch {
                throw .nested(field: "data.signedRenewalInfo", error)
            }
        }
        return (notification, signed, transaction, renewalInfo)
    }

    private func check(environment found: String?) throws(AppleVerificationError) {
        guard found == environment.rawValue else { throw .environmentMismatch(expected: environment, found: found) }
    }

    // MARK: - Chain and signature

    /// Parses, decodes the payload as `type`, then verifies the chain and the signature.
    private func verified<Payload: Decodable>(_ jws: String, as type: Payload.Type) async throws(AppleVerificationError)
        -> (Payload, AppleCompactJWS)
    {
        let signed = try AppleCompactJWS(jws)
        return (try await verified(signed, as: type), signed)
    }

    private func verified<Payload: Decodable>(_ signed: AppleCompactJWS, as type: Payload.Type)
        async throws(AppleVerificationError) -> Payload
    {
        let payload = try Self.decode(type, from: signed)
        try await verifyChain(of: signed, at: try Self.signedDate(of: signed))
        try Self.verifySignature(of: signed)
        return payload
    }

    /// The time the chain is checked at: the payload's `signedDate` in whole seconds, as Apple's
    /// libraries do with online checks off; the current time when there is none.
    package static func signedDate(of signed: AppleCompactJWS) throws(AppleVerificationError) -> Date {
        switch signed.payload["signedDate"] {
        case nil, .null?: return Date()
        case let value?:
            guard let milliseconds = value.exactInteger else {
                throw .payloadUnreadable(
                    type: "signed payload",
                    reason: "signedDate is \(value.shortDescription), expected milliseconds since 1970")
            }
            // Rounded down, without negating (which overflows near Int64.min: a forged payload).
            let seconds = milliseconds / 1000 - (milliseconds % 1000 < 0 ? 1 : 0)
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
    }

    package static func decode<Payload: Decodable>(_ type: Payload.Type, from signed: AppleCompactJWS)
        throws(AppleVerificationError) -> Payload
    {
        do {
            return try JSONValueDecoder().decode(type, from: signed.payload)
        } catch let error as DecodingError {
            throw .payloadUnreadable(type: String(describing: type), reason: Self.describe(error))
        } catch {
            throw .payloadUnreadable(type: String(describing: type), reason: "\(error)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return
                "\(path(context.codingPath)) is \(context.debugDescription.replacingOccurrences(of: "found ", with: "")), "
                + "expected \(Self.typeName(type))"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int64.Type, is Int.Type: "an integer"
        case is Bool.Type: "a boolean"
        case is UUID.Type: "a UUID"
        default: "\(type)"
        }
    }

    private func verifyChain(of signed: AppleCompactJWS, at date: Date) async throws(AppleVerificationError) {
        // Named reasons first, for the mistakes a person can act on; the Verifier decides.
        let leafOID = AppleChainPolicy.leafOID.description
        let intermediateOID = AppleChainPolicy.intermediateOID.description
        guard AppleChainPolicy.carries(signed.leaf, AppleChainPolicy.leafOID) else {
            throw .missingAppleExtension(certificate: "leaf", oid: leafOID)
        }
        guard AppleChainPolicy.carries(signed.intermediate, AppleChainPolicy.intermediateOID) else {
            throw .missingAppleExtension(certificate: "intermediate", oid: intermediateOID)
        }
        // The root's key usage is checked once the Verifier has found it (AppleChainPolicy).
        if let problem = AppleChainPolicy.keyUsageProblem(
            leaf: signed.leaf, authorities: [("intermediate", signed.intermediate)])
        {
            throw .untrustedChain(problem)
        }
        for (name, certificate) in [("leaf", signed.leaf), ("intermediate", signed.intermediate)] {
            guard certificate.notValidBefore <= date, date <= certificate.notValidAfter else {
                throw .certificateNotValid(
                    certificate: name, at: date, notBefore: certificate.notValidBefore,
                    notAfter: certificate.notValidAfter)
            }
        }
        let key = VerifiedChainCache.Key(leaf: signed.leafDER, intermediate: signed.intermediateDER)
        if chains.accepts(key, at: date) { return }
        var verifier = Verifier(rootCertificates: CertificateStore(rootCertificates)) {
            RFC5280Policy(fixedExpiryValidationTime: date)
            AppleChainPolicy()
        }
        let result = await verifier.validate(leaf: signed.leaf, intermediates: CertificateStore([signed.intermediate]))
        switch result {
        case .validCertificate(let chain):
            // The Verifier may find another path; only leaf → x5c[1] → a trusted root is Apple's.
            guard chain.count == 3, chain[1] == signed.intermediate else {
                throw .untrustedChain("the chain found does not go through x5c[1]")
            }
            chains.remember(
                key, validFrom: chain.map(\.notValidBefore).max() ?? date,
                until: chain.map(\.notValidAfter).min() ?? date)
        case .couldNotValidate(let failures):
            if let failure = failures.first {
                throw .untrustedChain(AppleVerificationError.clip("\(failure.policyFailureReason)"))
            }
            let names = rootCertificates.map { "\"\(Self.name(of: $0))\"" }
            throw .untrustedChain(
                "no trusted root issued the intermediate \"\(Self.name(of: signed.intermediate))\" "
                    + "(trusted: \(names.joined(separator: ", ")))")
        }
    }

    /// A certificate's common name (its subject when it has none), clipped, for messages.
    private static func name(of certificate: Certificate) -> String {
        for relativeName in certificate.subject {
            for attribute in relativeName where attribute.type == ASN1ObjectIdentifier.RDNAttributeType.commonName {
                return AppleVerificationError.clip("\(attribute.value)")
            }
        }
        return AppleVerificationError.clip("\(certificate.subject)")
    }

    /// Verifies the ES256 signature with the leaf's key.
    ///
    /// A high-S signature (s > n/2) is accepted, as Apple's verifiers accept it: Apple's Python
    /// library verifies with PyJWT, which calls `cryptography` (OpenSSL), and neither requires
    /// low S. It must be accepted: the App Store's signer does not normalize S, so about half of
    /// what it signs is high-S (18 of 42 genuine App Store JWS, each verified to Apple Root CA – G3,
    /// checked when this was written); refusing them would refuse real purchases. That (r, n−s)
    /// verifies as well as (r, s) lets anyone respell a JWS without changing what it says; nothing
    /// here keys on the JWS's text (the real-time endpoint's replay cache keys on the request
    /// identifier and the payload's digest), so a respelled request is the same request.
    private static func verifySignature(of signed: AppleCompactJWS) throws(AppleVerificationError) {
        guard let key = P256.Signing.PublicKey(signed.leaf.publicKey) else {
            throw .unreadableCertificate(position: 0, reason: "its public key is not P-256")
        }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signed.signature),
            key.isValidSignature(signature, for: signed.signingInput)
        else { throw .signatureInvalid }
    }
}
