import Foundation
import OfferJSON

/// Why a private key could not be loaded.
///
/// No case carries key bytes, and no message quotes the input: a key pasted into the wrong place
/// must never end up in a log line.
public enum KeyLoadingError: Error, Equatable, Sendable {
    /// The input was empty or only whitespace.
    case empty
    /// The input is neither PEM, base64 nor DER of a key.
    case notAKey
    /// A public key was given where the private key is needed.
    case publicKey
    /// An RSA key was given; In-App Purchase keys are EC P-256.
    case rsaKey
    /// An EC key on a curve other than P-256, named by its curve.
    case unsupportedCurve(String)
    /// A private key of another algorithm (Ed25519, DSA, …), named by algorithm or OID.
    case unsupportedAlgorithm(String)
    /// A password-protected (encrypted) private key.
    case encryptedKey
    /// An X.509 certificate rather than a key.
    case certificate
    /// A PKCS#12 (`.p12`/`.pfx`) bundle.
    case pkcs12
    /// The text looked like base64 but is not valid base64.
    case invalidBase64
    /// The key data ends early: a copy-paste cut it off.
    case truncated
    /// The structure is a P-256 private key but its contents are not valid.
    case invalidKeyData
    /// A key file could not be read.
    case unreadableFile(path: String, reason: String)
    /// The named environment variable is not set (or empty).
    case environmentVariableNotSet(String)
    /// The input is larger than ``SigningKey/maximumKeyBytes`` (a file or stdin is not read past it).
    case tooLarge(limit: Int)
}

extension KeyLoadingError: LocalizedError {
    public var errorDescription: String? {
        let expected = "expected an App Store In-App Purchase key: the .p8 file as downloaded (PKCS#8 PEM, EC P-256)"
        switch self {
        case .empty:
            return "The key is empty; \(expected)."
        case .notAKey:
            return "The key input is not a private key (not PEM, base64 or DER of one); \(expected)."
        case .publicKey:
            return "The key input is a public key; signing needs the private key, \(expected)."
        case .rsaKey:
            return "The key input is an RSA key; \(expected)."
        case .unsupportedCurve(let curve):
            return "The key is on curve \(curve); \(expected)."
        case .unsupportedAlgorithm(let algorithm):
            return "The key uses algorithm \(algorithm); \(expected)."
        case .encryptedKey:
            return "The key is encrypted (password-protected); decrypt it first, for example with "
                + "`openssl pkcs8 -in key.p8 -out plain.p8`; \(expected)."
        case .certificate:
            return "The key input is a certificate, not a private key; \(expected)."
        case .pkcs12:
            return "The key input is a PKCS#12 (.p12) bundle; \(expected)."
        case .invalidBase64:
            return "The key is not valid base64; \(expected)."
        case .truncated:
            return "The key data is truncated (cut off while copying?); \(expected)."
        case .invalidKeyData:
            return "The key has the structure of a P-256 private key but its value is invalid; \(expected)."
        case .unreadableFile(let path, let reason):
            return "Cannot read key file \(path): \(reason)."
        case .environmentVariableNotSet(let name):
            return "Environment variable \(name) is not set or empty; it should hold the key (PEM or its base64 body)."
        case .tooLarge(let limit):
            return "The key input is larger than \(BoundedInput.describe(limit)), far more than a key (a .p8 file is "
                + "about 250 bytes); \(expected)."
        }
    }
}
