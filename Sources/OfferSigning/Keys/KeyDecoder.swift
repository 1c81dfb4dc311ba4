import Crypto
import OfferJSON

/// Turns whatever a user calls "the key" (PEM, SEC1 PEM, the bare base64 body, DER) into a
/// P-256 private key, or into the precise reason it is not one.
enum KeyDecoder {
    private enum OID {
        static let ecPublicKey = "1.2.840.10045.2.1"
        static let prime256v1 = "1.2.840.10045.3.1.7"
        static let rsaEncryption = "1.2.840.113549.1.1.1"
        static let curveNames: [String: String] = [
            "1.3.132.0.34": "P-384 (secp384r1)",
            "1.3.132.0.35": "P-521 (secp521r1)",
            "1.3.132.0.10": "secp256k1",
            "1.2.840.10045.3.1.1": "P-192 (prime192v1)",
            "1.3.132.0.33": "P-224 (secp224r1)",
            "1.3.36.3.3.2.8.1.1.7": "brainpoolP256r1",
        ]
        static let algorithmNames: [String: String] = [
            "1.3.101.112": "Ed25519",
            "1.3.101.113": "Ed448",
            "1.3.101.110": "X25519",
            "1.3.101.111": "X448",
            "1.2.840.10040.4.1": "DSA",
            "1.2.840.113549.1.1.10": "RSA-PSS",
        ]
    }

    static func privateKey<Bytes: Collection<UInt8>>(from input: Bytes) throws(KeyLoadingError)
        -> P256.Signing.PrivateKey
    {
        let der = try derBytes(from: Array(input))
        try classify(der)
        do {
            return try P256.Signing.PrivateKey(derRepresentation: der)
        } catch {
            throw .invalidKeyData
        }
    }

    // MARK: - Text forms

    static func derBytes(from input: [UInt8]) throws(KeyLoadingError) -> [UInt8] {
        let trimmed = input.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty else { throw .empty }
        // DER SEQUENCE: binary, so never trim its end (a key may end in a 0x09/0x0A/0x0D/0x20 byte).
        if trimmed.first == 0x30 { return Array(input[trimmed.startIndex...]) }
        let text = String(decoding: trimmed, as: UTF8.self)
        if text.contains("-----BEGIN ") { return try privateKeyDER(inPEM: text) }
        let body = trimmed.filter { !$0.isASCIIWhitespace }
        guard body.allSatisfy({ $0.isBase64Character }) else { throw .notAKey }
        guard let der = Base64.decode(body, urlSafe: false) ?? Base64.decode(body, urlSafe: true) else {
            throw .invalidBase64
        }
        guard der.first == 0x30 else { throw .notAKey }
        return der
    }

    /// The DER of the private key in a PEM document, or the error that fits what the document holds.
    /// Accepts what ``PEMBlock`` reads (CRLF, other widths, text around the blocks) and documents that
    /// carry other blocks (such as `EC PARAMETERS`) next to the key, broken or not.
    static func privateKeyDER(inPEM text: String) throws(KeyLoadingError) -> [UInt8] {
        let blocks = PEMBlock.scan(text)
        let labels = blocks.map { block in
            switch block {
            case .success(let read): read.label
            case .failure(let problem): problem.label
            }
        }
        let keyLabels = ["PRIVATE KEY", "EC PRIVATE KEY"]
        if let index = labels.firstIndex(where: keyLabels.contains) {
            switch blocks[index] {
            case .success(let block):
                if block.isEncrypted { throw .encryptedKey }
                return block.der
            // No END line of its own (the text ends, another BEGIN or another label's END comes first).
            case .failure(.unterminated), .failure(.mismatchedEnd): throw .truncated
            case .failure(.empty): throw .empty
            case .failure(.notBase64): throw .invalidBase64
            }
        }
        let found = Set(labels)
        if found.contains("ENCRYPTED PRIVATE KEY") { throw .encryptedKey }
        if found.contains("RSA PRIVATE KEY") || found.contains("RSA PUBLIC KEY") { throw .rsaKey }
        if found.contains("PUBLIC KEY") || found.contains("EC PUBLIC KEY") { throw .publicKey }
        if found.contains("CERTIFICATE") || found.contains("TRUSTED CERTIFICATE") { throw .certificate }
        if found.contains("PKCS12") { throw .pkcs12 }
        if found.contains("OPENSSH PRIVATE KEY") { throw .unsupportedAlgorithm("OpenSSH key format") }
        if found.contains("DSA PRIVATE KEY") { throw .unsupportedAlgorithm("DSA") }
        throw .notAKey
    }

    // MARK: - Redaction

    /// Whether `text` looks like (part of) a key: PEM, or the base64 of an ASN.1 SEQUENCE
    /// (which always starts with "M"). Errors never echo such text, so a key passed as a path,
    /// variable name or identifier does not end up in a log line.
    static func looksLikeKeyMaterial(_ text: String) -> Bool {
        if text.contains("-----BEGIN ") || text.contains("PRIVATE KEY") { return true }
        let compact = text.utf8.filter { !$0.isASCIIWhitespace }
        return compact.count >= 32 && compact.first == UInt8(ascii: "M") && compact.allSatisfy(\.isBase64Character)
    }

    /// `text`, or a short placeholder when it looks like key material.
    static func redacted(_ text: String) -> String {
        looksLikeKeyMaterial(text) ? "<key material, \(text.count) characters>" : text
    }

    // MARK: - DER classification

    /// Throws the specific error for every DER structure that is not a P-256 private key.
    static func classify(_ der: [UInt8]) throws(KeyLoadingError) {
        let top: DERReader.Element
        let children: [DERReader.Element]
        do {
            top = try DERReader.single(der)
            guard top.isSequence else { throw KeyLoadingError.notAKey }
            children = try top.children()
        } catch let error as KeyLoadingError {
            throw error
        } catch DERReader.DERError.truncated {
            throw .truncated
        } catch {
            throw .notAKey
        }
        let tags = children.map(\.tag)
        // PKCS#8 PrivateKeyInfo: INTEGER, AlgorithmIdentifier, OCTET STRING, …
        if tags.count >= 3, tags[0] == 0x02, tags[1] == 0x30, tags[2] == 0x04 {
            try checkAlgorithm(children[1])
            return
        }
        // EncryptedPrivateKeyInfo: AlgorithmIdentifier, OCTET STRING
        if tags == [0x30, 0x04] { throw .encryptedKey }
        // SubjectPublicKeyInfo: AlgorithmIdentifier, BIT STRING
        if tags == [0x30, 0x03] { throw .publicKey }
        // Certificate: TBSCertificate, AlgorithmIdentifier, BIT STRING
        if tags == [0x30, 0x30, 0x03] { throw .certificate }
        // PKCS#12 PFX: INTEGER 3, ContentInfo, MacData?
        if tags.count >= 2, children[0].smallInteger == 3, tags[1] == 0x30 { throw .pkcs12 }
        // SEC1 ECPrivateKey: INTEGER 1, OCTET STRING, [0] parameters?, [1] public key?
        if tags.count >= 2, children[0].smallInteger == 1, tags[1] == 0x04 {
            if let parameters = children.first(where: { $0.tag == 0xA0 }) {
                let curve = (try? parameters.children())?.first?.objectIdentifier
                try checkCurve(curve)
            } else if children[1].content.count != 32 {
                throw .unsupportedCurve("of a \(children[1].content.count * 8)-bit key")
            }
            return
        }
        // PKCS#1 RSAPrivateKey: nine INTEGERs
        if tags.count >= 9, tags.allSatisfy({ $0 == 0x02 }) { throw .rsaKey }
        throw .notAKey
    }

    private static func checkAlgorithm(_ algorithm: DERReader.Element) throws(KeyLoadingError) {
        let parts = (try? algorithm.children()) ?? []
        guard let oid = parts.first?.objectIdentifier else { throw .notAKey }
        switch oid {
        case OID.ecPublicKey:
            try checkCurve(parts.dropFirst().first?.objectIdentifier)
        case OID.rsaEncryption:
            throw .rsaKey
        default:
            throw .unsupportedAlgorithm(OID.algorithmNames[oid] ?? "with OID \(oid)")
        }
    }

    private static func checkCurve(_ oid: String?) throws(KeyLoadingError) {
        guard let oid else { throw .unsupportedCurve("given by explicit parameters") }
        guard oid == OID.prime256v1 else {
            throw .unsupportedCurve(OID.curveNames[oid] ?? "with OID \(oid)")
        }
    }
}

extension UInt8 {
    var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }

    var isBase64Character: Bool {
        switch self {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"),
            UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}

extension Array where Element == UInt8 {
    func trimmingASCIIWhitespace() -> ArraySlice<UInt8> {
        guard let start = firstIndex(where: { !$0.isASCIIWhitespace }),
            let end = lastIndex(where: { !$0.isASCIIWhitespace })
        else { return [] }
        return self[start...end]
    }
}
