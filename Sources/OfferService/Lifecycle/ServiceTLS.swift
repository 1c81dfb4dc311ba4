import Foundation
import HummingbirdTLS
import OfferAppleVerification
import OfferJSON
import OfferSigning
import SwiftASN1
import X509

/// The TLS setting ``ServiceRunner`` serves HTTPS with: a certificate chain and its private key,
/// checked, in a NIOSSL server configuration that accepts TLS 1.2 or later and offers HTTP/1.1 by
/// ALPN (Apple calls the Get Retention Message endpoint over TLS 1.2 or later only).
///
/// ```swift
/// let tls = try ServiceTLS.load(TLSFiles(certificateChain: "fullchain.pem", privateKey: "privkey.pem", origin: .flags))
/// let runner = ServiceRunner(service: service, host: "0.0.0.0", port: 8443, logger: logger, tls: tls)
/// ```
///
/// The files are read once: a renewed certificate is served after a restart.
public struct ServiceTLS: Sendable {
    /// The NIOSSL server configuration: the chain, the key, TLS 1.2 minimum, ALPN `http/1.1`.
    public let tlsConfiguration: TLSConfiguration
    /// The leaf certificate's subject, such as `CN=api.example.com` (control characters shown as
    /// `?`, clipped to 64 characters).
    public let subject: String
    /// When the leaf certificate expires.
    public let notValidAfter: Date

    /// The largest certificate chain or key file read: 1 MiB.
    public static let maximumFileBytes = 1 << 20

    /// Reads and checks the PEM files: at least one certificate in the chain (the leaf first), one
    /// unencrypted EC or RSA private key that belongs to the leaf, and a leaf valid at `now`.
    /// - Throws: ``ConfigurationError/tlsNotLoaded(field:file:problem:)``, naming the field or flag,
    ///   what was expected and what was found (never the key).
    public static func load(_ files: TLSFiles, now: Date = Date()) throws(ConfigurationError) -> ServiceTLS {
        let chainField = files.certificateChainField
        let keyField = files.privateKeyField
        func refuse(_ field: String, _ file: String, _ problem: String) -> ConfigurationError {
            .tlsNotLoaded(field: field, file: file, problem: problem)
        }

        // The certificates: every PEM block a CERTIFICATE, read by swift-certificates and by NIOSSL.
        let chainText = try read(files.certificateChain, field: chainField)
        let chainExpected = "PEM certificates (-----BEGIN CERTIFICATE-----), the server's certificate first"
        let blocks: [PEMBlock]
        do {
            blocks = try PEMBlock.blocks(in: chainText)
        } catch {
            throw refuse(chainField, files.certificateChain, "expected \(chainExpected) (found \(error))")
        }
        guard !blocks.isEmpty else {
            throw refuse(chainField, files.certificateChain, "expected \(chainExpected) (found \(Self.noBlock))")
        }
        var certificates: [Certificate] = []
        var nioCertificates: [NIOSSLCertificate] = []
        for (index, block) in blocks.enumerated() {
            guard block.label == "CERTIFICATE" else {
                throw refuse(
                    chainField, files.certificateChain,
                    "expected \(chainExpected) (found a \(block.label) block as block \(index + 1))")
            }
            do {
                certificates.append(try Certificate(derEncoded: block.der))
                nioCertificates.append(try NIOSSLCertificate(bytes: block.der, format: .der))
            } catch {
                throw refuse(
                    chainField, files.certificateChain,
                    "expected \(chainExpected) (certificate \(index + 1) is not a valid X.509 certificate)")
            }
        }
        let leaf = certificates[0]
        let subject = AppleVerificationError.clip(String(describing: leaf.subject))
        if now > leaf.notValidAfter {
            throw refuse(
                chainField, files.certificateChain,
                "the server's certificate (\(subject)) expired on \(Self.format(leaf.notValidAfter)): renew it")
        }
        if now < leaf.notValidBefore {
            throw refuse(
                chainField, files.certificateChain,
                "the server's certificate (\(subject)) is not valid until \(Self.format(leaf.notValidBefore))")
        }

        // The key: one unencrypted private key block, whose public key is the leaf's.
        let keyText = try read(files.privateKey, field: keyField)
        let keyExpected = "one unencrypted EC or RSA private key in PEM"
        let keyBlocks: [PEMBlock]
        do {
            keyBlocks = try PEMBlock.blocks(in: keyText)
        } catch {
            throw refuse(keyField, files.privateKey, "expected \(keyExpected) (found \(error))")
        }
        // `openssl ecparam -genkey` writes an EC PARAMETERS block before the key: only key blocks count.
        let keys = keyBlocks.filter { $0.label.hasSuffix("PRIVATE KEY") }
        if keys.contains(where: \.isEncrypted) {
            throw refuse(
                keyField, files.privateKey,
                "expected \(keyExpected) (found an encrypted key: decrypt it, for example with `openssl pkey -in "
                    + "KEY -out privkey.pem`, and keep the file readable by the service's user only)")
        }
        guard keys.count == 1, let keyBlock = keys.first else {
            let found =
                keyBlocks.isEmpty
                ? Self.noBlock : keys.isEmpty ? "no PRIVATE KEY block" : "\(keys.count) private keys"
            throw refuse(keyField, files.privateKey, "expected \(keyExpected) (found \(found))")
        }
        let privateKey: Certificate.PrivateKey
        let nioKey: NIOSSLPrivateKey
        do {
            // Written again with 64-character lines, which both readers take.
            let document = PEMDocument(type: keyBlock.label, derBytes: keyBlock.der)
            privateKey = try Certificate.PrivateKey(pemDocument: document)
            nioKey = try NIOSSLPrivateKey(bytes: Array(document.pemString.utf8), format: .pem)
        } catch {
            throw refuse(
                keyField, files.privateKey,
                "expected \(keyExpected) (found a \(keyBlock.label) block that cannot be read as one)")
        }
        if privateKey.publicKey != leaf.publicKey,
            let owner = certificates.indices.dropFirst().first(where: {
                certificates[$0].publicKey == privateKey.publicKey
            })
        {
            throw refuse(
                chainField, files.certificateChain,
                "expected the server's certificate first (found the private key's certificate, "
                    + "\(AppleVerificationError.clip(String(describing: certificates[owner].subject))), as certificate \(owner + 1) of \(blocks.count): "
                    + "put it first, then the certificates that issued it)")
        }
        guard privateKey.publicKey == leaf.publicKey else {
            throw refuse(
                keyField, files.privateKey,
                "expected the private key of the server's certificate (\(subject)), the first of \(chainField) "
                    + "(found a key whose public key is not the certificate's)")
        }

        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: nioCertificates.map { .certificate($0) }, privateKey: .privateKey(nioKey))
        configuration.minimumTLSVersion = .tlsv12
        configuration.applicationProtocols = ["http/1.1"]
        return ServiceTLS(tlsConfiguration: configuration, subject: subject, notValidAfter: leaf.notValidAfter)
    }

    private init(tlsConfiguration: TLSConfiguration, subject: String, notValidAfter: Date) {
        self.tlsConfiguration = tlsConfiguration
        self.subject = subject
        self.notValidAfter = notValidAfter
    }

    /// What a file without blocks is found to hold: a file flattened to one line (`echo $KEY >
    /// key.pem`) has no BEGIN line of its own either.
    private static let noBlock = "no PEM block: each -----BEGIN and -----END line must be a line of its own"

    /// The file's text (at most ``maximumFileBytes``): a regular file (after links), so that a FIFO
    /// or a device cannot hold the start waiting for a writer.
    private static func read(_ path: String, field: String) throws(ConfigurationError) -> String {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            let kind = status.st_mode & S_IFMT == S_IFDIR ? "a directory" : "not a regular file"
            throw .tlsNotLoaded(field: field, file: path, problem: "the file cannot be read: it is \(kind)")
        }
        do {
            return String(
                decoding: try BoundedInput.read(path: path, limit: maximumFileBytes, accepting: .regularFile),
                as: UTF8.self)
        } catch {
            throw .tlsNotLoaded(field: field, file: path, problem: "the file cannot be read: \(error.reason)")
        }
    }

    /// A date as ISO 8601 in UTC, such as `2026-05-01T12:00:00Z`.
    public static func format(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
