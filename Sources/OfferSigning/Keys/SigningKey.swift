import Crypto
import Foundation
import OfferJSON

/// An In-App Purchase private key (EC P-256) together with its key ID.
///
/// Parse the key once and keep the value: every signer built from it reuses the parsed key.
/// The value never shows its private bytes: `description`, `debugDescription` and `dump` print
/// the key ID and the public key's thumbprint only.
///
/// ```swift
/// let key = try SigningKey(pem: pemText, keyId: "2X9R4HXF34")
/// let key = try SigningKey(contentsOfFile: "SubscriptionKey_2X9R4HXF34.p8", keyId: "2X9R4HXF34")
/// let key = try SigningKey(environmentVariable: "OFFERKIT_KEY", keyId: "2X9R4HXF34")
/// ```
public struct SigningKey: Sendable {
    /// The key ID from App Store Connect: 10 upper-case letters or digits.
    public let keyId: String
    let privateKey: P256.Signing.PrivateKey

    /// Loads a key from bytes in any supported form: PKCS#8 PEM (the `.p8` file), SEC1 PEM,
    /// the base64 body alone, or DER.
    /// - Throws: ``KeyLoadingError`` for anything that is not a P-256 private key, and
    ///   ``CredentialError/invalidKeyId(_:)`` for a malformed key ID.
    public init<Bytes: Collection<UInt8>>(bytes: Bytes, keyId: String) throws {
        try CredentialValidation.validateKeyId(keyId)
        guard bytes.count <= Self.maximumKeyBytes else { throw KeyLoadingError.tooLarge(limit: Self.maximumKeyBytes) }
        self.keyId = keyId
        self.privateKey = try KeyDecoder.privateKey(from: bytes)
    }

    /// Loads a key from text: PKCS#8 or SEC1 PEM, or the base64 body alone.
    public init(pem: String, keyId: String) throws {
        try self.init(bytes: Array(pem.utf8), keyId: keyId)
    }

    /// The most bytes a key input may have: 16 KiB. A `.p8` file is about 250 bytes; a larger
    /// input is not a key, and is refused without being read past this size.
    public static let maximumKeyBytes = 16_384

    /// Loads a key from a file (`.p8` as downloaded, SEC1 PEM, base64 or DER). FIFOs, `/dev/stdin`
    /// and a shell's `<(…)` work too (opened without blocking: a FIFO that no program opens for
    /// writing within 5 seconds is an error); at most ``maximumKeyBytes`` are read.
    public init(contentsOfFile path: String, keyId: String) throws {
        let bytes: [UInt8]
        do {
            bytes = try BoundedInput.read(path: path, limit: Self.maximumKeyBytes, accepting: .fileOrStream)
        } catch .tooLarge(let limit) {
            throw KeyLoadingError.tooLarge(limit: limit)
        } catch {
            throw KeyLoadingError.unreadableFile(path: KeyDecoder.redacted(path), reason: Self.reason(for: error))
        }
        try self.init(bytes: bytes, keyId: keyId)
    }

    /// Loads a key from an environment variable holding the PEM text or its base64 body.
    public init(environmentVariable name: String, keyId: String, environment: [String: String]? = nil) throws {
        let environment = environment ?? ProcessInfo.processInfo.environment
        guard let value = environment[name], !value.allSatisfy(\.isWhitespace) else {
            throw KeyLoadingError.environmentVariableNotSet(KeyDecoder.redacted(name))
        }
        // Environment variables often carry PEM with literal "\n" sequences.
        let text = value.contains("-----BEGIN ") ? value.replacingOccurrences(of: "\\n", with: "\n") : value
        try self.init(pem: text, keyId: keyId)
    }

    init(privateKey: P256.Signing.PrivateKey, keyId: String) throws {
        try CredentialValidation.validateKeyId(keyId)
        self.keyId = keyId
        self.privateKey = privateKey
    }

    /// Generates a fresh P-256 key, for local testing only: Apple only accepts keys it issued.
    public static func generate(keyId: String) throws -> SigningKey {
        try SigningKey(privateKey: P256.Signing.PrivateKey(), keyId: keyId)
    }

    /// The matching public key.
    public var publicKey: P256.Signing.PublicKey { privateKey.publicKey }

    /// The public key as a `-----BEGIN PUBLIC KEY-----` PEM document.
    public var publicKeyPEM: String { privateKey.publicKey.pemRepresentation }

    /// The private key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), for writing a generated
    /// key to a file. Never log this value.
    public var privateKeyPKCS8PEM: String { privateKey.pemRepresentation }

    /// The public key as a JWK (RFC 7517), members in RFC 7638 order.
    public var publicJWK: String {
        let (x, y) = coordinates
        return #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
    }

    /// RFC 7638 JWK thumbprint (SHA-256, base64url) of the public key.
    public var jwkThumbprint: String {
        Base64.urlString(Array(SHA256.hash(data: Array(publicJWK.utf8))))
    }

    private var coordinates: (x: String, y: String) {
        let raw = Array(privateKey.publicKey.rawRepresentation)  // x || y, 32 bytes each
        return (Base64.urlString(raw[0..<32]), Base64.urlString(raw[32..<64]))
    }

    private static func reason(for failure: BoundedInput.Failure) -> String {
        switch failure {
        case .cannotOpen(let reason): reason
        case .readFailed(let reason): "read failed: \(reason)"
        case .isDirectory: "it is a directory"
        case .notRegularFile, .noWriter, .tooLarge: failure.reason
        }
    }
}

extension SigningKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "SigningKey(keyId: \(keyId), curve: P-256, thumbprint: \(jwkThumbprint))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["keyId": keyId, "thumbprint": jwkThumbprint], displayStyle: .struct)
    }
}
