import Crypto
import Foundation
import OfferJSON
import SwiftASN1
import X509

/// A certificate chain shaped like the App Store's, made on this machine, to sign real-time
/// requests for a Get Retention Message endpoint that trusts its root (`retention.rootCertificates`):
/// a root, an intermediate with Apple's Worldwide Developer Relations extension
/// (1.2.840.113635.100.6.2.1) and a leaf with the App Store signing extension
/// (1.2.840.113635.100.6.11.1), each on its own P-256 key, valid from 2020 to 2120.
///
/// Apple never signs with it: an endpoint that trusts only Apple Root CA – G3 refuses what it signs.
///
/// ```swift
/// let chain = try RetentionTestChain()
/// try chain.write(to: URL(fileURLWithPath: "test-chain"))          // root.pem for the service
/// let body = try RealtimeRequestSigner(chain: chain).body(for: request)  // {"signedPayload":"…"}
/// ```
public struct RetentionTestChain: Sendable {
    /// Apple's intermediate certificates carry this extension.
    public static let intermediateOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]
    /// Apple's App Store signing (leaf) certificates carry this extension.
    public static let leafOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]

    /// The start of every certificate's validity: 2020-01-01.
    public static let validFrom = Date(timeIntervalSince1970: 1_577_836_800)
    /// The end of every certificate's validity: 2120-01-01.
    public static let validUntil = Date(timeIntervalSince1970: 4_733_510_400)

    /// The root's subject (and issuer).
    public static let rootName: DistinguishedName = name("OfferKit Test Root CA")
    /// The intermediate's subject.
    public static let intermediateName: DistinguishedName = name("OfferKit Test WWDR")
    /// The leaf's subject.
    public static let leafName: DistinguishedName = name("OfferKit Test StoreKit Signing")

    /// The self-signed root: what the endpoint trusts.
    public let root: Certificate
    /// The intermediate, issued by the root.
    public let intermediate: Certificate
    /// The leaf, issued by the intermediate; its key signs the requests.
    public let leaf: Certificate
    /// The leaf's private key.
    public let leafKey: P256.Signing.PrivateKey
    /// `base64url(header) + "."`: the header lists the same three certificates in every JWS, so its
    /// segment is encoded once (about 3 KB of DER and base64), not for each signature.
    private let signingPrefix: [UInt8]

    /// A chain of three fresh keys; the root valid until `rootValidUntil`.
    public init(rootValidUntil: Date = RetentionTestChain.validUntil) throws {
        try self.init(
            rootKey: P256.Signing.PrivateKey(), intermediateKey: P256.Signing.PrivateKey(),
            leafKey: P256.Signing.PrivateKey(), rootValidUntil: rootValidUntil)
    }

    /// A chain on the given keys (to make other certificates under the same root or intermediate).
    public init(
        rootKey: P256.Signing.PrivateKey, intermediateKey: P256.Signing.PrivateKey, leafKey: P256.Signing.PrivateKey,
        rootValidUntil: Date = RetentionTestChain.validUntil
    ) throws {
        root = try Self.certificate(
            subject: Self.rootName, key: rootKey.publicKey, issuer: Self.rootName, issuerKey: rootKey, role: .root,
            notAfter: rootValidUntil)
        intermediate = try Self.certificate(
            subject: Self.intermediateName, key: intermediateKey.publicKey, issuer: Self.rootName,
            issuerKey: rootKey, role: .intermediate, oid: Self.intermediateOID)
        leaf = try Self.certificate(
            subject: Self.leafName, key: leafKey.publicKey, issuer: Self.intermediateName,
            issuerKey: intermediateKey, role: .leaf, oid: Self.leafOID)
        self.leafKey = leafKey
        signingPrefix = try Self.signingPrefix(x5c: [leaf, intermediate, root])
    }

    /// A chain of certificates made elsewhere (read from a folder); the leaf must be `leafKey`'s.
    /// - Throws: ``RetentionTestChainError/keyDoesNotMatchLeaf`` when it is not.
    public init(root: Certificate, intermediate: Certificate, leaf: Certificate, leafKey: P256.Signing.PrivateKey)
        throws(RetentionTestChainError)
    {
        guard leaf.publicKey == Certificate.PublicKey(leafKey.publicKey) else { throw .keyDoesNotMatchLeaf }
        self.root = root
        self.intermediate = intermediate
        self.leaf = leaf
        self.leafKey = leafKey
        do {
            signingPrefix = try Self.signingPrefix(x5c: [leaf, intermediate, root])
        } catch {
            throw .unreadable(path: Self.leafFile, expected: "certificates that serialize as DER for the x5c header")
        }
    }

    /// The certificates as a JWS's `x5c` lists them: leaf, intermediate, root.
    public var certificates: [Certificate] { [leaf, intermediate, root] }

    /// The root as PEM, for a configuration's `retention.rootCertificates`.
    public var rootPEM: String { Self.pem(root) }

    /// Signs `payload` (the bytes of a JSON object) as the App Store signs: an ES256 compact JWS
    /// whose header lists the chain in `x5c`.
    /// The header's segment is encoded once, when the chain is made or read.
    public func sign(_ payload: [UInt8]) throws -> String {
        var output = signingPrefix
        output.reserveCapacity(signingPrefix.count + Base64.encodedLength(payload.count, padded: false) + 88)
        Base64.appendURL(payload, to: &output)
        let signature = try leafKey.signature(for: output).rawRepresentation
        output.append(UInt8(ascii: "."))
        Base64.appendURL(signature, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// `base64url(header(alg: "ES256", x5c: x5c)) + "."`.
    private static func signingPrefix(x5c: [Certificate]) throws -> [UInt8] {
        var prefix: [UInt8] = []
        Base64.appendURL(try header(alg: "ES256", x5c: x5c), to: &prefix)
        prefix.append(UInt8(ascii: "."))
        return prefix
    }

    /// A JWS header `{"alg": alg, "x5c": [standard base64 of each certificate's DER]}`.
    public static func header(alg: String, x5c: [Certificate]) throws -> [UInt8] {
        var header = JSONWriter(capacity: 2048)
        header.beginObject()
        header.member("alg", alg)
        header.key("x5c")
        header.beginArray()
        for certificate in x5c {
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            header.string(Base64.standardString(serializer.serializedBytes))
        }
        header.endArray()
        header.endObject()
        return header.bytes
    }

    /// A certificate's PEM text, with a final newline.
    static func pem(_ certificate: Certificate) -> String {
        // A certificate made or read here always serializes.
        (try? certificate.serializeAsPEM().pemString).map { $0 + "\n" } ?? ""
    }

    /// A certificate's place in the chain, which sets its basic constraints and key usage.
    public enum Role: Sendable {
        /// A self-signed certificate authority.
        case root
        /// A certificate authority that issues only end certificates.
        case intermediate
        /// An end certificate that signs.
        case leaf
    }

    /// A certificate as this chain's are made: `role`'s constraints and key usage, key identifiers,
    /// and `oid` (Apple's extensions: DER NULL) when given.
    public static func certificate(
        subject: DistinguishedName, key: P256.Signing.PublicKey, issuer: DistinguishedName,
        issuerKey: P256.Signing.PrivateKey, role: Role, oid: ASN1ObjectIdentifier? = nil, notBefore: Date = validFrom,
        notAfter: Date = validUntil
    ) throws -> Certificate {
        let publicKey = Certificate.PublicKey(key)
        var extensions: [Certificate.Extension] = []
        switch role {
        case .root:
            extensions.append(
                try Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil)).makeCertificateExtension())
            extensions.append(try Critical(KeyUsage(keyCertSign: true, cRLSign: true)).makeCertificateExtension())
        case .intermediate:
            extensions.append(
                try Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0)).makeCertificateExtension())
            extensions.append(try Critical(KeyUsage(keyCertSign: true, cRLSign: true)).makeCertificateExtension())
        case .leaf:
            extensions.append(try Critical(BasicConstraints.notCertificateAuthority).makeCertificateExtension())
            extensions.append(try Critical(KeyUsage(digitalSignature: true)).makeCertificateExtension())
        }
        extensions.append(try SubjectKeyIdentifier(hash: publicKey).makeCertificateExtension())
        if role != .root {
            let issuerIdentifier = SubjectKeyIdentifier(hash: Certificate.PublicKey(issuerKey.publicKey))
            extensions.append(
                try AuthorityKeyIdentifier(keyIdentifier: issuerIdentifier.keyIdentifier).makeCertificateExtension())
        }
        if let oid {
            extensions.append(Certificate.Extension(oid: oid, critical: false, value: [0x05, 0x00]))
        }
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey, notValidBefore: notBefore,
            notValidAfter: notAfter, issuer: issuer, subject: subject,
            extensions: try Certificate.Extensions(extensions),
            issuerPrivateKey: Certificate.PrivateKey(issuerKey))
    }

    private static func name(_ commonName: String) -> DistinguishedName {
        // Printable ASCII always makes a name.
        try! DistinguishedName {
            CommonName(commonName)
            OrganizationName("OfferKit Tests")
        }
    }
}
