import Foundation

/// Why an Apple-signed JWS was refused: each case names what failed and what was expected. Messages
/// never include the JWS itself; values read from the payload (a bundle ID, an environment) are
/// clipped.
public indirect enum AppleVerificationError: Error, Equatable, Sendable {
    /// The JWS is longer than the verifier accepts; it was not parsed.
    case inputTooLarge(bytes: Int, limit: Int)
    /// The input is not a compact JWS of JSON header and payload as the App Store signs it: a part
    /// is not canonical base64url (`=` padding, unused trailing bits set) or not a JSON object, or
    /// the header has a `crit` or `b64` member.
    case malformed(String)
    /// The header's `alg` is not `ES256` (`nil`: absent or not a string).
    case algorithmNotES256(found: String?)
    /// The header's `x5c` does not hold exactly three certificates (0: absent or not an array).
    case certificateChainLength(found: Int)
    /// An `x5c` entry (0 the leaf, 1 the intermediate) is not standard base64 of a DER certificate.
    case unreadableCertificate(position: Int, reason: String)
    /// The leaf or the intermediate lacks the extension Apple's certificates carry.
    case missingAppleExtension(certificate: String, oid: String)
    /// A certificate was not valid at the time the chain is checked at (the payload's `signedDate`).
    case certificateNotValid(certificate: String, at: Date, notBefore: Date, notAfter: Date)
    /// The chain does not verify to a trusted root, or breaks RFC 5280's rules on the way (basic
    /// constraints, key usage).
    case untrustedChain(String)
    /// The ES256 signature does not verify with the leaf certificate's public key.
    case signatureInvalid
    /// The payload is not the JSON object Apple's type describes.
    case payloadUnreadable(type: String, reason: String)
    /// The payload's `bundleId` is not the expected one.
    case bundleIdMismatch(expected: String, found: String?)
    /// The payload's `environment` is not the expected one.
    case environmentMismatch(expected: AppleEnvironment, found: String?)
    /// In production, the payload's `appAppleId` is not the expected one.
    case appAppleIdMismatch(expected: Int64, found: Int64?)
    /// The verifier was made for production without an App Apple ID.
    case appAppleIdRequired
    /// This kind of payload names a bundle ID, and the verifier was made without one to expect.
    case bundleIdRequired(kind: AppleSignedDataKind)
    /// The verifier was given no trusted root certificate.
    case noTrustedRoots
    /// A root certificate given to the verifier could not be read.
    case unreadableRootCertificate(String)
    /// A JWS nested in a notification (`data.signedTransactionInfo`, `data.signedRenewalInfo`) was refused.
    case nested(field: String, AppleVerificationError)

    /// Whether the signature and chain verified and only a check of the payload's app or
    /// environment failed (the data is Apple's, for another app or environment).
    public var isPayloadMismatch: Bool {
        switch self {
        case .bundleIdMismatch, .environmentMismatch, .appAppleIdMismatch: true
        case .nested(_, let inner): inner.isPayloadMismatch
        default: false
        }
    }
}

extension AppleVerificationError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .inputTooLarge(let bytes, let limit):
            "the JWS is \(bytes) bytes, more than the \(limit) accepted; it was not parsed"
        case .malformed(let reason): "not a compact JWS: \(reason)"
        case .algorithmNotES256(let found):
            "header alg is \(found.map { "\"\(Self.clip($0))\"" } ?? "missing"), expected \"ES256\""
        case .certificateChainLength(let found):
            found == 0
                ? "header x5c is missing or empty, expected 3 certificates (leaf, intermediate, root)"
                : "header x5c holds \(found) certificates, expected 3 (leaf, intermediate, root)"
        case .unreadableCertificate(let position, let reason):
            "x5c[\(position)] (\(position == 0 ? "the leaf" : "the intermediate")) is not a certificate: \(reason)"
        case .missingAppleExtension(let certificate, let oid):
            "the \(certificate) certificate lacks extension \(oid), which Apple's \(certificate) certificates carry"
        case .certificateNotValid(let certificate, let at, let notBefore, let notAfter):
            "the \(certificate) certificate is not valid at \(Self.date(at)) (the payload's signedDate): "
                + "valid from \(Self.date(notBefore)) to \(Self.date(notAfter))"
        case .untrustedChain(let reason): "the certificate chain does not verify to a trusted root: \(reason)"
        case .signatureInvalid: "the ES256 signature does not verify with the leaf certificate's public key"
        case .payloadUnreadable(let type, let reason): "the payload is not a \(type): \(reason)"
        case .bundleIdMismatch(let expected, let found):
            "bundleId is \(found.map { "\"\(Self.clip($0))\"" } ?? "missing"), expected \"\(expected)\""
        case .environmentMismatch(let expected, let found):
            "environment is \(found.map { "\"\(Self.clip($0))\"" } ?? "missing"), expected \"\(expected.rawValue)\""
        case .appAppleIdMismatch(let expected, let found):
            "appAppleId is \(found.map(String.init) ?? "missing"), expected \(expected) (checked in production)"
        case .appAppleIdRequired:
            "the environment is Production, so the App Apple ID to expect is required (appAppleId)"
        case .bundleIdRequired(let kind):
            "a \(kind.payloadTypeName) names its app by bundle ID: give the bundle ID to expect"
        case .noTrustedRoots: "no trusted root certificate was given"
        case .unreadableRootCertificate(let reason): "a trusted root certificate could not be read: \(reason)"
        case .nested(let field, let inner): "\(field): \(inner.errorDescription ?? "refused")"
        }
    }

    /// `text` for a message: control characters shown as `?`, clipped to 64 characters.
    package static func clip(_ text: String) -> String {
        let printable = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        return printable.count > 64 ? String(printable.prefix(64)) + "…" : printable
    }

    static func date(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
