import Crypto
import Foundation
import OfferJSON
import OfferRetentionEndpointTesting
import SwiftASN1
import X509

/// The test chain of `OfferRetentionEndpointTesting` (``RetentionTestChain``: a root, an intermediate with
/// Apple's Worldwide Developer Relations extension and a leaf with the App Store signing extension)
/// and, made with the same keys and names, the broken variants a verifier must refuse (``Variant``).
///
/// ```swift
/// let chain = AppleTestChain.shared
/// let jws = try chain.sign(RealtimeRequestPayload(appAppleId: 1234567890).json)
/// ```
public struct AppleTestChain: Sendable {
    /// Apple's intermediate certificates carry this extension.
    public static let intermediateOID = RetentionTestChain.intermediateOID
    /// Apple's App Store signing (leaf) certificates carry this extension.
    public static let leafOID = RetentionTestChain.leafOID
    /// Neither: what a wrong certificate carries instead.
    static let otherOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 99]

    /// The start and end of every good certificate's validity.
    public static let validFrom = RetentionTestChain.validFrom
    public static let validUntil = RetentionTestChain.validUntil

    /// The good chain.
    public let chain: RetentionTestChain
    public var root: Certificate { chain.root }
    public var intermediate: Certificate { chain.intermediate }
    public var leaf: Certificate { chain.leaf }
    /// The leaf's key, which signs the JWS.
    public var leafKey: P256.Signing.PrivateKey { chain.leafKey }
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

    /// The key usage of the good chain's root.
    public static let rootKeyUsage = KeyUsage(keyCertSign: true, cRLSign: true)

    /// A chain of fresh keys and its broken variants; the root valid until `rootValidUntil`, with
    /// `rootKeyUsage` as its (critical) key usage (`nil`: none).
    public init(rootValidUntil: Date = AppleTestChain.validUntil, rootKeyUsage: KeyUsage? = AppleTestChain.rootKeyUsage)
        throws
    {
        typealias Made = RetentionTestChain
        let rootKey = P256.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        let leafKey = P256.Signing.PrivateKey()
        var chain = try RetentionTestChain(
            rootKey: rootKey, intermediateKey: intermediateKey, leafKey: leafKey, rootValidUntil: rootValidUntil)
        if rootKeyUsage != Self.rootKeyUsage {
            // The same key and name: the intermediate, which the root's key signed, still chains to it.
            chain = try RetentionTestChain(
                root: try Self.withKeyUsage(chain.root, rootKeyUsage, issuerKey: rootKey),
                intermediate: chain.intermediate, leaf: chain.leaf, leafKey: leafKey)
        }
        let root = chain.root
        func intermediate(oid: ASN1ObjectIdentifier?, until: Date = Made.validUntil) throws -> Certificate {
            try Made.certificate(
                subject: Made.intermediateName, key: intermediateKey.publicKey, issuer: Made.rootName,
                issuerKey: rootKey, role: .intermediate, oid: oid, notAfter: until)
        }
        func leaf(oid: ASN1ObjectIdentifier?, from: Date = Made.validFrom, until: Date = Made.validUntil) throws
            -> Certificate
        {
            try Made.certificate(
                subject: Made.leafName, key: leafKey.publicKey, issuer: Made.intermediateName,
                issuerKey: intermediateKey, role: .leaf, oid: oid, notBefore: from, notAfter: until)
        }
        let goodIntermediate = chain.intermediate
        let goodLeaf = chain.leaf

        // Another root with its own intermediate and a leaf for the same leaf key.
        let otherRootKey = P256.Signing.PrivateKey()
        let otherIntermediateKey = P256.Signing.PrivateKey()
        let otherRootName = try DistinguishedName {
            CommonName("OfferKit Swift Other Root CA")
            OrganizationName("OfferKit Tests")
        }
        let otherRoot = try Made.certificate(
            subject: otherRootName, key: otherRootKey.publicKey, issuer: otherRootName, issuerKey: otherRootKey,
            role: .root)
        let otherIntermediate = try Made.certificate(
            subject: Made.intermediateName, key: otherIntermediateKey.publicKey, issuer: otherRootName,
            issuerKey: otherRootKey, role: .intermediate, oid: Self.intermediateOID)
        let otherLeaf = try Made.certificate(
            subject: Made.leafName, key: leafKey.publicKey, issuer: Made.intermediateName,
            issuerKey: otherIntermediateKey, role: .leaf, oid: Self.leafOID)

        let good = chain.certificates
        var chains: [Variant: [Certificate]] = [:]
        for variant in Variant.allCases {
            switch variant {
            case .good, .badSignature, .algorithmES384, .algorithmNone, .signedByAnotherKey,
                .payloadChangedAfterSigning, .critUnknown, .critB64False, .b64True, .paddedSignature,
                .signatureTrailingBits:
                chains[variant] = good
            case .intermediateWithoutKeyCertSign, .intermediateNonCriticalWithoutKeyCertSign,
                .intermediateWithoutKeyUsage:
                let (usage, critical) = variant.intermediateKeyUsage ?? (nil, true)
                chains[variant] = [
                    goodLeaf, try Self.withKeyUsage(goodIntermediate, usage, critical: critical, issuerKey: rootKey),
                    root,
                ]
            case .leafWithoutDigitalSignature, .leafWithKeyCertSign:
                chains[variant] = [
                    try Self.withKeyUsage(goodLeaf, variant.leafKeyUsage, issuerKey: intermediateKey),
                    goodIntermediate, root,
                ]
            case .wrongIntermediateOID: chains[variant] = [goodLeaf, try intermediate(oid: Self.otherOID), root]
            case .intermediateWithoutOID: chains[variant] = [goodLeaf, try intermediate(oid: nil), root]
            case .wrongLeafOID: chains[variant] = [try leaf(oid: Self.otherOID), goodIntermediate, root]
            case .leafWithoutOID: chains[variant] = [try leaf(oid: nil), goodIntermediate, root]
            case .leafExpiredAtSignedDate:
                chains[variant] = [
                    try leaf(oid: Self.leafOID, until: Date(timeIntervalSince1970: 1_609_459_200)), goodIntermediate,
                    root,
                ]
            case .leafNotYetValidAtSignedDate:
                chains[variant] = [
                    try leaf(oid: Self.leafOID, from: Date(timeIntervalSince1970: 4_102_444_800)), goodIntermediate,
                    root,
                ]
            case .intermediateExpiredAtSignedDate:
                chains[variant] = [
                    goodLeaf,
                    try intermediate(oid: Self.intermediateOID, until: Date(timeIntervalSince1970: 1_609_459_200)),
                    root,
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
        self.chain = chain
        self.variantChains = chains
    }

    /// The root as PEM, for a configuration's `rootCertificates` or Apple's Python verifier.
    public var rootPEM: String { chain.rootPEM }

    /// Signs `payload` (the bytes of a JSON object) as the App Store would, or as `variant` breaks it.
    public func sign(_ payload: [UInt8], variant: Variant = .good) throws -> String {
        if variant == .good { return try chain.sign(payload) }
        let alg =
            switch variant {
            case .algorithmES384: "ES384"
            case .algorithmNone: "none"
            default: "ES256"
            }
        var header = try RetentionTestChain.header(alg: alg, x5c: variantChains[variant] ?? [])
        if case .object(let members) = try JSONValue.parse(header), !variant.extraHeaderMembers.isEmpty {
            header = JSONValue.object(members + variant.extraHeaderMembers).serialized()
        }
        let signingInput = Base64.urlString(header) + "." + Base64.urlString(payload)
        let key = variant == .signedByAnotherKey ? P256.Signing.PrivateKey() : leafKey
        var signature = Array(try key.signature(for: Array(signingInput.utf8)).rawRepresentation)
        if variant == .badSignature { signature[10] ^= 0x01 }
        if variant == .payloadChangedAfterSigning {
            var changed = payload
            if let index = changed.firstIndex(of: UInt8(ascii: "1")) { changed[index] = UInt8(ascii: "2") }
            return Base64.urlString(header) + "." + Base64.urlString(changed) + "." + Base64.urlString(signature)
        }
        var encoded = Base64.urlString(signature)
        switch variant {
        case .paddedSignature: encoded += "=="
        case .signatureTrailingBits:
            // 64 bytes end in one byte over two characters: the last one's low 4 bits are unused.
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            let last = alphabet.firstIndex(of: encoded.removeLast()) ?? 0
            encoded.append(alphabet[last | 1])
        default: break
        }
        return signingInput + "." + encoded
    }

    /// `jws` with its signature (r, s) in its high-S form: (r, n − s) when s ≤ n/2. The App Store
    /// signs in both forms.
    public static func highS(_ jws: String) -> String {
        guard let dot = jws.lastIndex(of: "."),
            let signature = Base64.decode(Array(jws[jws.index(after: dot)...].utf8), urlSafe: true),
            signature.count == 64, !isHighS(Array(signature[32...]))
        else { return jws }
        return otherS(jws)
    }

    /// `jws` with its signature (r, s) spelled the other way, (r, n − s): it verifies with the same
    /// key, over the same header and payload.
    public static func otherS(_ jws: String) -> String {
        guard let dot = jws.lastIndex(of: "."),
            var signature = Base64.decode(Array(jws[jws.index(after: dot)...].utf8), urlSafe: true),
            signature.count == 64
        else { return jws }
        // n, the order of P-256, big-endian.
        let order: [UInt8] = [
            0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
            0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
        ]
        var borrow = 0
        for index in (0..<32).reversed() {
            let difference = Int(order[index]) - Int(signature[32 + index]) - borrow
            borrow = difference < 0 ? 1 : 0
            signature[32 + index] = UInt8((difference + 256) % 256)
        }
        return String(jws[...dot]) + Base64.urlString(signature)
    }

    /// Whether `s` (32 bytes, big-endian) is above n/2, the order of P-256 halved.
    public static func isHighS(_ s: [UInt8]) -> Bool {
        let halfOrder: [UInt8] = [
            0x7F, 0xFF, 0xFF, 0xFF, 0x80, 0x00, 0x00, 0x00, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
            0xDE, 0x73, 0x7D, 0x56, 0xD3, 0x8B, 0xCF, 0x42, 0x79, 0xDC, 0xE5, 0x61, 0x7E, 0x31, 0x92, 0xA8,
        ]
        return s.lexicographicallyPrecedes(halfOrder) == false && s != halfOrder
    }

    /// `{"signedPayload":"<jws>"}`: the body the App Store posts.
    public static func body(_ jws: String) -> [UInt8] { RealtimeRequestSigner.body(signedPayload: jws) }
}
