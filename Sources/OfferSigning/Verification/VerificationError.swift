import Foundation

/// Why a signature or JWS did not verify.
public enum VerificationError: Error, Equatable, Sendable {
    /// The input is not a compact JWS (three base64url segments of JSON).
    case malformed(String)
    /// A header member is missing, unexpected or has the wrong value.
    case invalidHeader(field: String, expected: String)
    /// The signature does not match the signed bytes under this public key.
    case signatureMismatch
    /// A required claim is absent.
    case missingClaim(String)
    /// A claim has the wrong type or value.
    case invalidClaim(field: String, expected: String)
    /// A claim that this kind of JWS must not carry.
    case unexpectedClaim(String)
    /// The JWS is of another kind than the one asked for.
    case wrongKind(expected: JWSKind, actual: JWSKind)
    /// The public key could not be read.
    case invalidPublicKey(String)
    /// The artifact verified, but names other credentials than the verifier expects
    /// (``ExpectedCredentials``): every one that differs.
    case credentialMismatch([ExpectedCredentials.Mismatch])
    /// A credential the verifier expects cannot be compared: this artifact does not carry it.
    case credentialNotApplicable(ExpectedCredentials.Credential, reason: String)

    /// The header member or claim at fault, if any.
    public var field: String? {
        switch self {
        case .invalidHeader(let field, _), .invalidClaim(let field, _): field
        case .missingClaim(let field), .unexpectedClaim(let field): field
        case .wrongKind: "aud"
        case .credentialMismatch(let mismatches): mismatches.first?.field
        case .credentialNotApplicable(let credential, _): credential.claim
        case .malformed, .signatureMismatch, .invalidPublicKey: nil
        }
    }
}

extension VerificationError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .malformed(let reason): "Not a compact JWS: \(reason)."
        case .invalidHeader(let field, let expected): "JWS header \(field) is invalid: expected \(expected)."
        case .signatureMismatch: "The signature does not verify with this public key."
        case .missingClaim(let field): "Claim \(field) is missing."
        case .invalidClaim(let field, let expected): "Claim \(field) is invalid: expected \(expected)."
        case .unexpectedClaim(let field): "Claim \(field) is not allowed in this kind of JWS."
        case .wrongKind(let expected, let actual):
            "The JWS is a \(actual.rawValue) JWS, not the expected \(expected.rawValue)."
        case .invalidPublicKey(let reason): "The public key cannot be used: \(reason)."
        case .credentialMismatch(let mismatches):
            "It names other credentials than expected: " + mismatches.map(\.description).joined(separator: "; ") + "."
        case .credentialNotApplicable(let credential, let reason):
            "The \(credential.name) cannot be compared: \(reason)."
        }
    }
}
