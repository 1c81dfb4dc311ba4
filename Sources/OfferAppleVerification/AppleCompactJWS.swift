import OfferJSON
import X509

/// A compact JWS as the App Store signs it, parsed but not yet verified: three parts of canonical
/// base64url (RFC 7515 §2: no `=` padding, unused trailing bits zero), the header's `alg` is
/// `ES256`, it has no `crit` (RFC 7515 §4.1.11) and no `b64` (RFC 7797) member, its `x5c` holds
/// three certificates (leaf, intermediate, root), the payload is a JSON object and the signature
/// is 64 bytes (raw r‖s).
///
/// Parsing makes no trust decision; ``AppleSignedDataVerifier`` does. As in Apple's libraries, the
/// third `x5c` entry is not read: the root comes from the verifier's trusted roots. Header members
/// other than `alg`, `x5c`, `crit` and `b64` are ignored, as RFC 7515 asks of members a recipient
/// does not understand and that `crit` does not list.
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
        let (header, _) = try Self.json(parts[0], part: "header")
        let (payload, payloadBytes) = try Self.json(parts[1], part: "payload")
        let signature = try Self.base64URL(parts[2], part: "signature")
        guard case .string(let algorithm)? = header["alg"], algorithm == "ES256" else {
            if case .string(let found)? = header["alg"] { throw .algorithmNotES256(found: found) }
            throw .algorithmNotES256(found: nil)
        }
        // RFC 7515 §4.1.11: a recipient must refuse a JWS whose crit lists an extension it does not
        // understand, and crit must not be empty. OfferKit understands none (Apple's JWS never carry
        // crit), so any crit is refused. b64 (RFC 7797) changes what the signature covers: Apple's JWS
        // never carry it, so it is refused in any form, even b64: true, which changes nothing.
        if let crit = header["crit"] {
            var listed = crit.shortDescription
            if case .array(let names) = crit {
                let shown = names.prefix(4).map { name in
                    if case .string(let text) = name { "\"\(text)\"" } else { name.typeName }
                }
                listed = "[" + shown.joined(separator: ", ") + (names.count > 4 ? ", …]" : "]")
            }
            throw .malformed(
                "the header's crit is \(AppleVerificationError.clip(listed)): extensions a verifier must understand "
                    + "or refuse (RFC 7515 §4.1.11); OfferKit understands none, and the App Store's JWS carry none")
        }
        if let b64 = header["b64"] {
            throw .malformed(
                "the header has b64: \(AppleVerificationError.clip(b64.text())), the unencoded-payload option "
                    + "(RFC 7797); the App Store's JWS never use it")
        }
        guard case .array(let chain)? = header["x5c"], chain.count == 3 else {
            if case .array(let chain)? = header["x5c"] { throw .certificateChainLength(found: chain.count) }
            throw .certificateChainLength(found: 0)
        }
        (self.leaf, self.leafDER) = try Self.certificate(chain[0], position: 0)
        (self.intermediate, self.intermediateDER) = try Self.certificate(chain[1], position: 1)
        self.payload = payload
        self.payloadBytes = payloadBytes
        self.signingInput = Array(bytes[..<parts[1].endIndex])
        self.signature = signature
    }

    /// The bytes of a part in canonical base64url: the URL-safe alphabet without `=` padding and
    /// with the unused bits of the last character zero (RFC 7515 §2, RFC 4648 §3.5). Apple's
    /// Python library (PyJWT) accepts `=` padding; OfferKit reads each signed JWS in exactly one
    /// spelling.
    private static func base64URL(_ part: ArraySlice<UInt8>, part name: String) throws(AppleVerificationError)
        -> [UInt8]
    {
        guard !part.contains(UInt8(ascii: "=")) else {
            throw .malformed("the \(name) is padded with '='; JWS parts are base64url without padding (RFC 7515 §2)")
        }
        // Base64.decode refuses characters outside the alphabet, an impossible length and unused
        // trailing bits that are not zero.
        guard let decoded = Base64.decode(part, urlSafe: true) else {
            throw .malformed(
                "the \(name) is not canonical base64url (the URL-safe alphabet, unused trailing bits zero)")
        }
        return decoded
    }

    /// A part's JSON object, and its bytes.
    private static func json(_ part: ArraySlice<UInt8>, part name: String) throws(AppleVerificationError) -> (
        JSONValue, [UInt8]
    ) {
        let decoded = try base64URL(part, part: name)
        let value: JSONValue
        do {
            value = try JSONValue.parse(decoded)
        } catch {
            throw .malformed("the \(name) is not JSON: \(error.message)")
        }
        guard case .object = value else { throw .malformed("the \(name) is \(value.typeName), expected an object") }
        return (value, decoded)
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
