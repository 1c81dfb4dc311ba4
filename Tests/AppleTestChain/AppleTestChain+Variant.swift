import Crypto
import OfferJSON
import SwiftASN1
import X509

extension AppleTestChain {
    /// How a signed JWS is broken: each must be refused by a verifier, and by Apple's own unless
    /// ``appleDiffers`` says why not.
    public enum Variant: String, CaseIterable, Sendable {
        /// Not broken: as the App Store signs.
        case good
        /// The intermediate carries another extension instead of 1.2.840.113635.100.6.2.1.
        case wrongIntermediateOID = "wrong-intermediate-oid"
        /// The intermediate carries no Apple extension.
        case intermediateWithoutOID = "intermediate-without-oid"
        /// The leaf carries another extension instead of 1.2.840.113635.100.6.11.1.
        case wrongLeafOID = "wrong-leaf-oid"
        /// The leaf carries no Apple extension.
        case leafWithoutOID = "leaf-without-oid"
        /// The leaf expired in 2021, before any signedDate the tests use.
        case leafExpiredAtSignedDate = "leaf-expired-at-signed-date"
        /// The leaf is valid only from 2100.
        case leafNotYetValidAtSignedDate = "leaf-not-yet-valid-at-signed-date"
        /// The intermediate expired in 2021.
        case intermediateExpiredAtSignedDate = "intermediate-expired-at-signed-date"
        /// A whole chain under another root.
        case wrongRoot = "wrong-root"
        /// Another root's chain, with the trusted root as `x5c[2]`.
        case wrongRootClaimingTestRoot = "wrong-root-claiming-test-root"
        /// The leaf with an intermediate that did not issue it.
        case leafFromAnotherIntermediate = "leaf-from-another-intermediate"
        /// Intermediate first, then the leaf.
        case swappedOrder = "swapped-order"
        /// Only the leaf.
        case chainOf1 = "chain-of-1"
        /// Leaf and intermediate, no root.
        case chainOf2 = "chain-of-2"
        /// The root twice.
        case chainOf4 = "chain-of-4"
        /// One bit of the signature flipped.
        case badSignature = "bad-signature"
        /// The payload changed after it was signed.
        case payloadChangedAfterSigning = "payload-changed-after-signing"
        /// Signed by a key that is not the leaf's.
        case signedByAnotherKey = "signed-by-another-key"
        /// The header says `ES384`.
        case algorithmES384 = "alg-ES384"
        /// The header says `none`.
        case algorithmNone = "alg-none"
        /// The header's `crit` lists an extension no verifier here understands (`exp`).
        case critUnknown = "crit-unknown"
        /// The header's `crit` lists `b64`, and `b64` is `false` (RFC 7797's unencoded payload).
        case critB64False = "crit-b64-false"
        /// The header has `b64: true`, without `crit`.
        case b64True = "b64-true"
        /// The signature part is padded: `==` appended.
        case paddedSignature = "padded-signature"
        /// The signature part's last character has an unused trailing bit set.
        case signatureTrailingBits = "signature-trailing-bits"
        /// The intermediate's critical keyUsage has cRLSign but not keyCertSign.
        case intermediateWithoutKeyCertSign = "intermediate-without-key-cert-sign"
        /// The intermediate's keyUsage is not critical and lacks keyCertSign.
        case intermediateNonCriticalWithoutKeyCertSign = "intermediate-non-critical-without-key-cert-sign"
        /// The intermediate has no keyUsage extension.
        case intermediateWithoutKeyUsage = "intermediate-without-key-usage"
        /// The leaf's critical keyUsage has keyAgreement but not digitalSignature.
        case leafWithoutDigitalSignature = "leaf-without-digital-signature"
        /// The leaf's keyUsage asserts keyCertSign besides digitalSignature.
        case leafWithKeyCertSign = "leaf-with-key-cert-sign"

        /// Every variant but ``good``.
        public static var broken: [Variant] { allCases.filter { $0 != .good } }

        /// Why Apple's own verifier (`SignedDataVerifier` of app-store-server-library, with PyJWT
        /// 2.15 and OpenSSL's strict chain checks) accepts this variant, which OfferKit refuses;
        /// `nil` when both refuse it.
        public var appleDiffers: String? {
            switch self {
            case .b64True:
                "PyJWT accepts b64: true (it changes nothing); OfferKit refuses any b64 member, which the App "
                    + "Store's JWS never carry"
            case .paddedSignature:
                "PyJWT accepts '=' padding on a part; OfferKit reads base64url only in its canonical, unpadded form "
                    + "(RFC 7515 §2)"
            case .leafWithoutDigitalSignature:
                "OpenSSL, with no purpose set, does not check the leaf's key usage; OfferKit requires "
                    + "digitalSignature of a leaf with keyUsage, since its key signs the JWS (RFC 5280 §4.2.1.3)"
            default: nil
            }
        }

        /// Members this variant adds to the header.
        var extraHeaderMembers: [(key: String, value: JSONValue)] {
            switch self {
            case .critUnknown: [("crit", .array([.string("exp")])), ("exp", .number("4102444800"))]
            case .critB64False: [("crit", .array([.string("b64")])), ("b64", .bool(false))]
            case .b64True: [("b64", .bool(true))]
            default: []
            }
        }

        /// The key usage this variant gives the intermediate (`nil`: none) and whether it is
        /// critical, when it changes the good one.
        var intermediateKeyUsage: (usage: KeyUsage?, critical: Bool)? {
            switch self {
            case .intermediateWithoutKeyCertSign: (KeyUsage(cRLSign: true), true)
            case .intermediateNonCriticalWithoutKeyCertSign: (KeyUsage(cRLSign: true), false)
            case .intermediateWithoutKeyUsage: (nil, true)
            default: nil
            }
        }

        /// The key usage this variant gives the leaf, when it changes the good one.
        var leafKeyUsage: KeyUsage? {
            switch self {
            case .leafWithoutDigitalSignature: KeyUsage(keyAgreement: true)
            case .leafWithKeyCertSign: KeyUsage(digitalSignature: true, keyCertSign: true)
            default: nil
            }
        }
    }

    /// `certificate` with its keyUsage replaced by `usage` (removed when `nil`), signed again by
    /// `issuerKey`.
    public static func withKeyUsage(
        _ certificate: Certificate, _ usage: KeyUsage?, critical: Bool = true, issuerKey: P256.Signing.PrivateKey
    ) throws -> Certificate {
        var extensions = certificate.extensions.filter { $0.oid != .X509ExtensionID.keyUsage }
        if let usage {
            extensions.append(
                critical
                    ? try Critical(usage).makeCertificateExtension() : try usage.makeCertificateExtension())
        }
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: certificate.publicKey,
            notValidBefore: certificate.notValidBefore, notValidAfter: certificate.notValidAfter,
            issuer: certificate.issuer, subject: certificate.subject,
            extensions: try Certificate.Extensions(extensions),
            issuerPrivateKey: Certificate.PrivateKey(issuerKey))
    }
}
