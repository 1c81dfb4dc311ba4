import Crypto
import Foundation
import SwiftASN1
import X509
import _CryptoExtras

/// Throwaway TLS certificates for the tests of `offerkit serve` over HTTPS: a CA, and server
/// certificates it signs for `127.0.0.1`, `::1` and `localhost`, each on a fresh key, as PEM text.
///
/// ```swift
/// let tls = try TestTLSCertificates()
/// let server = try tls.server()  // valid from an hour ago for a day, on a P-256 key
/// try server.chainPEM.write(toFile: "fullchain.pem", atomically: true, encoding: .utf8)
/// ```
public struct TestTLSCertificates: Sendable {
    /// The CA's certificate (PEM): what a client trusts (`curl --cacert`).
    public let caPEM: String
    private let caKey: P256.Signing.PrivateKey
    private let caName: DistinguishedName

    /// A server certificate and its key.
    public struct Server: Sendable {
        /// The leaf, then the CA: a full chain as a certificate authority hands it out.
        public let chainPEM: String
        /// The leaf alone.
        public let leafPEM: String
        /// The leaf's private key (PKCS #8 PEM for EC, PKCS #1 for RSA).
        public let keyPEM: String
    }

    /// The kind of key a server certificate is made on.
    public enum KeyKind: Sendable {
        case p256, p384, rsa2048
    }

    /// A fresh CA valid from an hour ago for a day.
    public init() throws {
        caKey = P256.Signing.PrivateKey()
        caName = try DistinguishedName {
            CommonName("OfferKit TLS Test CA")
            OrganizationName("OfferKit Tests")
        }
        let now = Date()
        let ca = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(caKey.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(86_400),
            issuer: caName, subject: caName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(caKey))
        caPEM = try ca.serializeAsPEM().pemString + "\n"
    }

    /// A server certificate for `127.0.0.1`, `::1` and `localhost`, signed by the CA, valid from
    /// `notValidBefore` to `notValidAfter` (by default from an hour ago for a day).
    public func server(
        key kind: KeyKind = .p256, notValidBefore: Date = Date().addingTimeInterval(-3600),
        notValidAfter: Date = Date().addingTimeInterval(86_400)
    ) throws -> Server {
        let key: Certificate.PrivateKey
        let keyPEM: String
        switch kind {
        case .p256:
            let made = P256.Signing.PrivateKey()
            (key, keyPEM) = (Certificate.PrivateKey(made), made.pemRepresentation)
        case .p384:
            let made = P384.Signing.PrivateKey()
            (key, keyPEM) = (Certificate.PrivateKey(made), made.pemRepresentation)
        case .rsa2048:
            let made = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            (key, keyPEM) = (Certificate.PrivateKey(made), made.pemRepresentation)
        }
        let name = try DistinguishedName {
            CommonName("localhost")
            OrganizationName("OfferKit Tests")
        }
        let leaf = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.publicKey,
            notValidBefore: notValidBefore, notValidAfter: notValidAfter,
            issuer: caName, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true, keyEncipherment: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([
                    .dnsName("localhost"),
                    .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                    .ipAddress(ASN1OctetString(contentBytes: ArraySlice([UInt8](repeating: 0, count: 15) + [1]))),
                ])
            },
            issuerPrivateKey: Certificate.PrivateKey(caKey))
        let leafPEM = try leaf.serializeAsPEM().pemString + "\n"
        return Server(chainPEM: leafPEM + caPEM, leafPEM: leafPEM, keyPEM: keyPEM + "\n")
    }
}
