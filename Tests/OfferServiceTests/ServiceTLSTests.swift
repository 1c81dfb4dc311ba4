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
