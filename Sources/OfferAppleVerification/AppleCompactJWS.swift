import OfferJSON
import X509

/// A compact JWS as the App Store signs it, parsed but not yet verified: the header's `alg` is
/// `ES256`, its `x5c` holds three certificates (leaf, intermediate, root), the payload is a JSON
/// object and the signature is 64 bytes (raw r‖s).
///
/// Parsing makes no trust decision; ``AppleSignedDataVerifier`` does. As in Apple's libraries, the
/// third `x5c` entry is not read: the root comes from the verifier's trusted roots.
public struct AppleCompactJWS: Sendable {
    /// The longest JWS accepted (64 KiB): Apple's JWS are a few kilobytes, a notification with its
    /// two nested JWS about 15 KB. A longer input is refused before it is parsed.
    public static let maximumBytes = 64 * 1024

    /// The leaf certificate (`x5c[0]`), whose key signed the JWS.
    public let leaf: Certificate
    /// The intermediate certificate (`x5c[1]`), which issued the leaf.
    public let intermediate: Certificate
    /// The DER bytes of ``leaf`` and ``intermediate``, as `x5c` gave them: the key of chains
    /// already verified.
    package let leafDER: [UInt8]
    package let intermediateDER: [UInt8]
    /// The payload, as signed: the bytes of a JSON object.
    public let payloadBytes: [UInt8]
    /// The payload, parsed.
    package let payload: JSONValue
    /// The signed bytes: the ASCII of `header.payload`.
    let signingInput: [UInt8]
    /// The signature: r‖s, 32 bytes each.
    let signature: [UInt8]

    /// Parses `text`.
    /// - Throws: ``AppleVerificationError`` naming the part that is not as Apple signs it.
    public init(_ text: String) throws(AppleVerificationError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maximumBytes else {
            throw .inputTooLarge(bytes: bytes.count, limit: Self.maximumBytes)
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw .malformed("expected three base64url parts separated by '.', found \(parts.count)")
        }
        let header = try Self.json(parts[0], part: "header")
        let payload = try Self.json(parts[1], part: "payload")
        guard let signature = Base64.decode(parts[2], urlSafe: true) else {
            throw .malformed("the signature is not base64url")
        }
        guard case .string(let algorithm)? = header["alg"], algorithm == "ES256" else {
            if case .string(let found)? = header["alg"] { throw .algorithmNotES256(found: found) }
            throw .algorithmNotES256(found: nil)
        }
        guard case .array(let chain)? = header["x5c"], chain.count == 3 else {
            if case .array(let chain)? = header["x5c"] { throw .certificateChainLength(found: chain.count) }
            throw .certificateChainLength(found: 0)
        }
        (self.leaf, self.leafDER) = try Self.certificate(chain[0], position: 0)
        (self.intermediate, self.intermediateDER) = try Self.certificate(chain[1], position: 1)
        self.payload = payload
        self.payloadBytes = Base64.decode(parts[1], urlSafe: true) ?? []
        self.signingInput = Array(bytes[..<parts[1].endIndex])
        self.signature = signature
    }

    private static func json(_ part: ArraySlice<UInt8>, part name: String) throws(AppleVerificationError) -> JSONValue {
        guard let decoded = Base64.decode(part, urlSafe: true) else {
            throw .malformed("the \(name) is not base64url")
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(decoded)
        } catch {
            throw .malformed("the \(name) is not JSON: \(error.message)")
        }
        guard case .object = value else { throw .malformed("the \(name) is \(value.typeName), expected an object") }
        return value
    }

    private static func certificate(_ entry: JSONValue, position: Int) throws(AppleVerificationError) -> (
        Certificate, [UInt8]
    ) {
        guard case .string(let text) = entry else {
            throw .unreadableCertificate(position: position, reason: "\(entry.typeName), expected a base64 string")
        }
        guard let der = Base64.decode(text.utf8, urlSafe: false), !der.isEmpty else {
            throw .unreadableCertificate(position: position, reason: "not standard base64")
        }
        do {
            return (try Certificate(derEncoded: der), der)
        } catch {
            throw .unreadableCertificate(position: position, reason: "not a DER certificate")
        }
    }
}
