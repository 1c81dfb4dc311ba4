import Foundation
import TLSTestSupport
import Testing

@testable import OfferService

/// ``ServiceTLS/load(_:now:)`` and the configuration's `tls` section: which chains and keys are
/// served, and how the others are refused.
@Suite("ServiceTLS")
struct ServiceTLSTests {
    static let certificates = Result { try TestTLSCertificates() }

    static func files(_ folder: TemporaryFolder, _ server: TestTLSCertificates.Server) throws -> TLSFiles {
        TLSFiles(
            certificateChain: try folder.write("fullchain.pem", server.chainPEM),
            privateKey: try folder.write("privkey.pem", server.keyPEM), origin: .flags)
    }

    @Test(arguments: [TestTLSCertificates.KeyKind.p256, .p384, .rsa2048])
    func loadsAChainAndItsKey(_ kind: TestTLSCertificates.KeyKind) throws {
        let folder = try TemporaryFolder()
        let tls = try ServiceTLS.load(try Self.files(folder, try Self.certificates.get().server(key: kind)))
        #expect(tls.subject.contains("CN=localhost"))
        #expect(tls.tlsConfiguration.minimumTLSVersion == .tlsv12)
        #expect(tls.tlsConfiguration.applicationProtocols == ["http/1.1"])
        #expect(tls.tlsConfiguration.certificateChain.count == 2)
    }

    @Test func aKeyAfterECParametersIsRead() throws {
        let folder = try TemporaryFolder()
        let server = try Self.certificates.get().server()
        var files = try Self.files(folder, server)
        // As `openssl ecparam -genkey -name prime256v1` writes it: the curve's parameters, then the key.
        files.privateKey = try folder.write(
            "key.pem", "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n" + server.keyPEM)
        _ = try ServiceTLS.load(files)
    }

    /// `text` with each PEM block's base64 written again in lines of `width` and CRLF line ends, as
    /// some tools write them (OpenSSL reads any width).
    static func rewrapped(_ text: String, width: Int) -> String {
        var out: [String] = []
        var base64 = ""
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("-----BEGIN") {
                out.append(line)
                base64 = ""
            } else if line.hasPrefix("-----END") {
                var rest = Substring(base64)
                while !rest.isEmpty {
                    out.append(String(rest.prefix(width)))
                    rest = rest.dropFirst(width)
                }
                out.append(line)
            } else {
                base64 += line
            }
        }
        return out.joined(separator: "\r\n") + "\r\n"
    }

    @Test(arguments: [76, 40])
    func base64LinesOfAnyWidthAreRead(_ width: Int) throws {
        let folder = try TemporaryFolder()
        let server = try Self.certificates.get().server()
        let files = TLSFiles(
            certificateChain: try folder.write("fullchain.pem", Self.rewrapped(server.chainPEM, width: width)),
            privateKey: try folder.write("privkey.pem", Self.rewrapped(server.keyPEM, width: width)), origin: .flags)
        #expect(try ServiceTLS.load(files).tlsConfiguration.certificateChain.count == 2)
    }

    @Test func aChainInTheWrongOrderIsNamedNotTheKey() throws {
        let folder = try TemporaryFolder()
        let certificates = try Self.certificates.get()
        let server = try certificates.server()
        var files = try Self.files(folder, server)
        files.certificateChain = try folder.write("reversed.pem", certificates.caPEM + server.leafPEM)
        do {
            _ = try ServiceTLS.load(files)
            Issue.record("a chain with the CA first was served")
        } catch {
            let message = error.errorDescription ?? ""
            #expect(
                message.contains("(--tls-certificate-chain): expected the server's certificate first"), "\(message)")
            #expect(message.contains("as certificate 2 of 2: put it first"), "\(message)")
        }
    }

    @Test func brokenBlocksAndFilesThatAreNotRegularAreRefusedByName() throws {
        let folder = try TemporaryFolder()
        let server = try Self.certificates.get().server()
        let good = try Self.files(folder, server)
        let cut = String(server.chainPEM.prefix(200))
        let notBase64 = "-----BEGIN CERTIFICATE-----\n%%%%\n-----END CERTIFICATE-----\n"
        let fifo = folder.url.appendingPathComponent("fifo.pem").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let cases: [(TLSFiles, String)] = [
            (
                TLSFiles(
                    certificateChain: try folder.write("cut.pem", cut), privateKey: good.privateKey, origin: .flags),
                "a BEGIN CERTIFICATE line without its END CERTIFICATE line"
            ),
            (
                TLSFiles(
                    certificateChain: try folder.write("bad.pem", notBase64), privateKey: good.privateKey,
                    origin: .flags),
                "a CERTIFICATE block whose content is not base64"
            ),
            (
                TLSFiles(certificateChain: good.certificateChain, privateKey: fifo, origin: .flags),
                "it is not a regular file"
            ),
            (
                TLSFiles(certificateChain: folder.url.path, privateKey: good.privateKey, origin: .flags),
                "it is a directory"
            ),
        ]
        for (files, expected) in cases {
            do {
                _ = try ServiceTLS.load(files)
                Issue.record("served: \(expected)")
            } catch {
                #expect(
                    error.errorDescription?.contains(expected) == true, "\(String(describing: error.errorDescription))")
            }
        }
    }

    /// A key file flattened to one line (`echo $KEY > privkey.pem`, or `\n` written as two characters)
    /// has no BEGIN line of its own: the message says so and shows none of the key's base64.
    @Test(arguments: [" ", "\\n"])
    func aKeyFlattenedToOneLineIsRefusedWithoutShowingIt(_ separator: String) throws {
        let folder = try TemporaryFolder()
        let server = try Self.certificates.get().server()
        var files = try Self.files(folder, server)
        let lines = server.keyPEM.split(whereSeparator: \.isNewline)
        files.privateKey = try folder.write("flat.pem", lines.joined(separator: separator) + "\n")
        do {
            _ = try ServiceTLS.load(files)
            Issue.record("a flattened key was served")
        } catch {
            let message = error.errorDescription ?? ""
            #expect(message.contains("(--tls-private-key): expected one unencrypted"), "\(message)")
            #expect(message.contains("found no PEM block: each -----BEGIN and -----END line must be a line of its own"))
            let base64 = lines.filter { !$0.hasPrefix("-----") }.joined()
            // Not one 8-character run of the key's base64 appears.
            for start in stride(from: 0, to: base64.count - 8, by: 1) {
                let run = base64.dropFirst(start).prefix(8)
                #expect(!message.contains(run), "\(message)")
            }
        }
    }

    @Test func aBeginLineInAnOpenBlockAndAnEndLineOfAnotherLabelAreNamed() throws {
        let folder = try TemporaryFolder()
        let server = try Self.certificates.get().server()
        let good = try Self.files(folder, server)
        let cut = String(server.leafPEM.prefix(200)) + "\n" + server.chainPEM
        let mismatched = server.leafPEM.replacingOccurrences(
            of: "-----END CERTIFICATE-----", with: "-----END X509 CRL-----")
        let empty = "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n" + server.chainPEM
        let cases: [(String, String)] = [
            (cut, "(found a BEGIN CERTIFICATE line without its END CERTIFICATE line)"),
            (mismatched, "(found a BEGIN CERTIFICATE line whose END line names another label)"),
            (empty, "(found an empty CERTIFICATE block)"),
        ]
        for (index, (text, expected)) in cases.enumerated() {
            let files = TLSFiles(
                certificateChain: try folder.write("chain\(index).pem", text), privateKey: good.privateKey,
                origin: .flags)
            do {
                _ = try ServiceTLS.load(files)
                Issue.record("served: \(expected)")
            } catch {
                #expect(
                    error.errorDescription?.contains(expected) == true, "\(String(describing: error.errorDescription))")
            }
        }
    }

    @Test func theLeafMustBeValidNow() throws {
        let folder = try TemporaryFolder()
        let files = try Self.files(folder, try Self.certificates.get().server())
        #expect(throws: ConfigurationError.self) {
            try ServiceTLS.load(files, now: Date().addingTimeInterval(2 * 86_400))
        }
        #expect(throws: ConfigurationError.self) {
            try ServiceTLS.load(files, now: Date().addingTimeInterval(-2 * 3600))
        }
    }

    @Test func theConfigurationSectionIsReadRelativeToItsFolder() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "conf/service.json",
            #"{"apps": {}, "tls": {"certificateChain": "fullchain.pem", "privateKey": "/etc/ssl/privkey.pem"}}"#)
        let configuration = try ServiceConfiguration.load(path: path, environment: [:])
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        #expect(
            configuration.tls
                == TLSFiles(
                    certificateChain: directory + "/fullchain.pem", privateKey: "/etc/ssl/privkey.pem",
                    origin: .configuration(source: path)))
        #expect(configuration.tls?.privateKeyField == "tls.privateKey in \(path)")
        let missing = try folder.write("missing.json", #"{"apps": {}, "tls": {"certificateChain": "a.pem"}}"#)
        #expect(throws: ConfigurationError.self) { try ServiceConfiguration.load(path: missing, environment: [:]) }
    }
}
