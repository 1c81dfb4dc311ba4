import Crypto
import Foundation
import OfferJSON
import OfferRetentionTesting
import SwiftASN1
import X509

/// The test chain of `OfferRetentionTesting` (``RetentionTestChain``: a root, an intermediate with
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

    /// A chain of fresh keys and its broken variants; the root valid until `rootValidUntil`.
    public init(rootValidUntil: Date = AppleTestChain.validUntil) throws {
        typealias Made = RetentionTestChain
        let rootKey = P256.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        let leafKey = P256.Signing.PrivateKey()
        let chain = try RetentionTestChain(
            rootKey: rootKey, intermediateKey: intermediateKey, leafKey: leafKey, rootValidUntil: rootValidUntil)
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
                .payloadChangedAfterSigning:
                chains[variant] = good
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
        let header = try RetentionTestChain.header(alg: alg, x5c: variantChains[variant] ?? [])
        let signingInput = Base64.urlString(header) + "." + Base64.urlString(payload)
        let key = variant == .signedByAnotherKey ? P256.Signing.PrivateKey() : leafKey
        var signature = Array(try key.signature(for: Array(signingInput.utf8)).rawRepresentation)
        if variant == .badSignature { signature[10] ^= 0x01 }
        if variant == .payloadChangedAfterSigning {
            var changed = payload
            if let index = changed.firstIndex(of: UInt8(ascii: "1")) { changed[index] = UInt8(ascii: "2") }
            return Base64.urlString(header) + "." + Base64.urlString(changed) + "." + Base64.urlString(signature)
        }
        return signingInput + "." + Base64.urlString(signature)
    }

    /// `{"signedPayload":"<jws>"}`: the body the App Store posts.
    public static func body(_ jws: String) -> [UInt8] { RealtimeRequestSigner.body(signedPayload: jws) }
}
