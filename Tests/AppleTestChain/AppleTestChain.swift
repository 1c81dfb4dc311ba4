import Crypto
import Foundation
import OfferJSON
import SwiftASN1
import X509

/// A certificate chain like the App Store's, made in Swift for the tests: a root, an intermediate
/// with Apple's Worldwide Developer Relations extension (1.2.840.113635.100.6.2.1) and a leaf with
/// the App Store signing extension (1.2.840.113635.100.6.11.1), each on a fresh P-256 key, valid
/// from 2020 to 2120; and the broken variants a verifier must refuse (``Variant``).
///
/// ```swift
/// let chain = AppleTestChain.shared
/// let jws = try chain.sign(RealtimeRequestPayload(appAppleId: 1234567890).json)
/// ```
public struct AppleTestChain: Sendable {
    /// Apple's intermediate certificates carry this extension.
    public static let intermediateOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]
    /// Apple's App Store signing (leaf) certificates carry this extension.
    public static let leafOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]
    /// Neither: what a wrong certificate carries instead.
    static let otherOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 99]

    /// The start and end of every good certificate's validity.
    public static let validFrom = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01
    public static let validUntil = Date(timeIntervalSince1970: 4_733_510_400)  // 2120-01-01

    public let root: Certificate
    public let intermediate: Certificate
    public let leaf: Certificate
    /// The leaf's key, which signs the JWS.
    public let leafKey: P256.Signing.PrivateKey
    /// The certificates of each broken variant, leaf first, as its `x5c` lists them.
    private let variantChains: [Variant: [Certificate]]

    /// One chain for the whole test run (making certificates takes a few milliseconds).
    public static let shared: AppleTestChain = {
        do {
            return try AppleTestChain()
        } catch {
            fatalError("the test chain could not be made: \(error)")
        }
    }()

    /// A chain of fresh keys and its broken variants; the root valid until `rootValidUntil`.
    public init(rootValidUntil: Date = AppleTestChain.validUntil) throws {
        let rootKey = P256.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        let leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName {
            CommonName("OfferKit Swift Test Root CA")
            OrganizationName("OfferKit Tests")
        }
        let intermediateName = try DistinguishedName {
            CommonName("OfferKit Swift Test WWDR")
            OrganizationName("OfferKit Tests")
        }
        let leafName = try DistinguishedName {
            CommonName("OfferKit Swift Test StoreKit Signing")
            OrganizationName("OfferKit Tests")
        }
        let root = try Self.certificate(
            subject: rootName, key: rootKey.publicKey, issuer: rootName, issuerKey: rootKey, role: .root,
            notAfter: rootValidUntil)
        func intermediate(
            oid: ASN1ObjectIdentifier? = AppleTestChain.intermediateOID, until: Date = AppleTestChain.validUntil
        ) throws -> Certificate {
            try Self.certificate(
                subject: intermediateName, key: intermediateKey.publicKey, issuer: rootName, issuerKey: rootKey,
                role: .intermediate, oid: oid, notAfter: until)
        }
        func leaf(
            oid: ASN1ObjectIdentifier? = AppleTestChain.leafOID, from: Date = AppleTestChain.validFrom,
            until: Date = AppleTestChain.validUntil
        ) throws
            -> Certificate
        {
            try Self.certificate(
                subject: leafName, key: leafKey.publicKey, issuer: intermediateName, issuerKey: intermediateKey,
                role: .leaf, oid: oid, notBefore: from, notAfter: until)
        }
        let goodIntermediate = try intermediate()
        let goodLeaf = try leaf()

        // Another root with its own intermediate and a leaf for the same leaf key.
        let otherRootKey = P256.Signing.PrivateKey()
        let otherIntermediateKey = P256.Signing.PrivateKey()
        let otherRootName = try DistinguishedName {
            CommonName("OfferKit Swift Other Root CA")
            OrganizationName("OfferKit Tests")
        }
        let otherRoot = try Self.certificate(
            subject: otherRootName, key: otherRootKey.publicKey, issuer: otherRootName, issuerKey: otherRootKey,
            role: .root)
        let otherIntermediate = try Self.certificate(
            subject: intermediateName, key: otherIntermediateKey.publicKey, issuer: otherRootName,
            issuerKey: otherRootKey, role: .intermediate, oid: Self.intermediateOID)
        let otherLeaf = try Self.certificate(
            subject: leafName, key: leafKey.publicKey, issuer: intermediateName, issuerKey: otherIntermediateKey,
            role: .leaf, oid: Self.leafOID)

        let good = [goodLeaf, goodIntermediate, root]
        var chains: [Variant: [Certificate]] = [:]
        for variant in Variant.allCases {
            switch variant {
            case .good, .badSignature, .algorithmES384, .algorithmNone, .signedByAnotherKey,
                .payloadChangedAfterSigning:
                chains[variant] = good
            case .wrongIntermediateOID: chains[variant] = [goodLeaf, try intermediate(oid: Self.otherOID), root]
            case .intermediateWithoutOID: chains[variant] = [goodLeaf, try intermediate(oid: nil), root]
            case .wrongLeafOID: chains[variant] = [try leaf(oid: Self.otherOID), goodIntermediate, root]
            case .leafWithoutOID: chains[variant] = [try leaf(oid: nil), goodIntermediate, root]
            case .leafExpiredAtSignedDate:
                chains[variant] = [try leaf(until: Date(timeIntervalSince1970: 1_609_459_200)), goodIntermediate, root]
            case .leafNotYetValidAtSignedDate:
                chains[variant] = [try leaf(from: Date(timeIntervalSince1970: 4_102_444_800)), goodIntermediate, root]
            case .intermediateExpiredAtSignedDate:
                chains[variant] = [
                    goodLeaf, try intermediate(until: Date(timeIntervalSince1970: 1_609_459_200)), root,
                ]
            case .wrongRoot: chains[variant] = [otherLeaf, otherIntermediate, otherRoot]
            case .wrongRootClaimingTestRoot: chains[variant] = [otherLeaf, otherIntermediate, root]
            case .leafFromAnotherIntermediate: chains[variant] = [goodLeaf, otherIntermediate, root]
            case .swappedOrder: chains[variant] = [goodIntermediate, goodLeaf, root]
            case .chainOf1: chains[variant] = [goodLeaf]
            case .chainOf2: chains[variant] = [goodLeaf, goodIntermediate]
            case .chainOf4: chains[variant] = [goodLeaf, goodIntermediate, root, root]
            }
        }
        self.root = root
        self.intermediate = goodIntermediate
        self.leaf = goodLeaf
        self.leafKey = leafKey
        self.variantChains = chains
    }

    /// The root as PEM, for a configuration's `rootCertificates` or Apple's Python verifier.
    public var rootPEM: String {
        // A certificate made here always serializes.
        (try? root.serializeAsPEM().pemString).map { $0 + "\n" } ?? ""
    }

    /// Signs `payload` (the bytes of a JSON object) as the App Store would, or as `variant` breaks it.
    public func sign(_ payload: [UInt8], variant: Variant = .good) throws -> String {
        let chain = variantChains[variant] ?? []
        var header = JSONWriter(capacity: 2048)
        header.beginObject()
        switch variant {
        case .algorithmES384: header.member("alg", "ES384")
        case .algorithmNone: header.member("alg", "none")
        default: header.member("alg", "ES256")
        }
        header.key("x5c")
        header.beginArray()
        for certificate in chain {
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            header.string(Base64.standardString(serializer.serializedBytes))
        }
        header.endArray()
        header.endObject()
        let signingInput = Base64.urlString(header.bytes) + "." + Base64.urlString(payload)
        let key = variant == .signedByAnotherKey ? P256.Signing.PrivateKey() : leafKey
        var signature = Array(try key.signature(for: Array(signingInput.utf8)).rawRepresentation)
        if variant == .badSignature { signature[10] ^= 0x01 }
        if variant == .payloadChangedAfterSigning {
            var changed = payload
            if let index = changed.firstIndex(of: UInt8(ascii: "1")) { changed[index] = UInt8(ascii: "2") }
            return Base64.urlString(header.bytes) + "." + Base64.urlString(changed) + "."
                + Base64.urlString(signature)
        }
        return signingInput + "." + Base64.urlString(signature)
    }

    /// `{"signedPayload":"<jws>"}`: the body the App Store posts.
    public static func body(_ jws: String) -> [UInt8] {
        var writer = JSONWriter(capacity: jws.utf8.count + 24)
        writer.beginObject()
        writer.member("signedPayload", jws)
        writer.endObject()
        return writer.bytes
    }

    private enum Role { case root, intermediate, leaf }

    private static func certificate(
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
            // The value Apple's certificates carry: DER NULL.
            extensions.append(Certificate.Extension(oid: oid, critical: false, value: [0x05, 0x00]))
        }
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey, notValidBefore: notBefore,
            notValidAfter: notAfter, issuer: issuer, subject: subject,
            extensions: try Certificate.Extensions(extensions),
            issuerPrivateKey: Certificate.PrivateKey(issuerKey))
    }
}
