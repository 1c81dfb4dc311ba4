import AppleTestChain
import Foundation
import OfferRetentionEndpointTesting
import OfferSigning
import TLSTestSupport
import Testing

@testable import CLITestSupport

/// `offerkit serve` terminating TLS itself, run as a real process and called with tools that are
/// not OfferKit's: curl and openssl s_client trusting a throwaway CA, PyJWT over the signature.
@Suite("offerkit serve over TLS")
struct ServeTLSTests {
    static let certificates = Result { try TestTLSCertificates() }

    /// A folder with the CA (`ca.pem`), a server chain and key (`fullchain.pem`, `privkey.pem`) and a
    /// configuration (`service.json`) for the demo app with the test chain's root for the Get
    /// Retention Message endpoint and `tls` naming the chain and key by relative paths.
    static func folder(tls: String = #""tls": {"certificateChain": "fullchain.pem", "privateKey": "privkey.pem"},"#)
        throws -> TempDir
    {
        let certificates = try Self.certificates.get()
        let server = try certificates.server()
        let folder = try TempDir.make()
        _ = try folder.write(certificates.caPEM, to: "ca.pem")
        _ = try folder.write(server.chainPEM, to: "fullchain.pem")
        _ = try folder.write(server.keyPEM, to: "privkey.pem")
        _ = try folder.write(AppleTestChain.shared.rootPEM, to: "root.pem")
        _ = try folder.write(
            """
            {
              \(tls)
              "apps": {
                "\(DemoKey.bundleId)": { "keyFile": "\(DemoKey.keyPath)", "keyId": "\(DemoKey.keyId)",
                                         "issuerId": "\(DemoKey.issuerId)", "appAppleId": \(RetentionExample.appAppleId) }
              },
              "retention": {
                "environments": ["Sandbox"], "rootCertificates": ["root.pem"],
                "apps": { "\(DemoKey.bundleId)": \(RetentionExample.rulesJSON) }
              }
            }
            """, to: "service.json")
        return folder
    }

    /// `curl` over HTTPS trusting only `ca.pem`: the body, then a last line with the status.
    static func curl(_ folder: TempDir, _ url: String, _ extra: [String] = []) async throws -> (
        status: Int, body: String
    ) {
        let result = try await Independent.run(
            "curl",
            [
                "--silent", "--show-error", "--max-time", "60", "--cacert", folder.file("ca.pem"), "--write-out",
                "\n%{http_code}",
            ] + extra + [url])
        #expect(result.status == 0, "curl \(url): \(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    /// `openssl s_client` with only `version` (such as `-tls1_2`) allowed, trusting `ca.pem`.
    static func handshake(_ folder: TempDir, port: Int, _ options: [String]) async throws -> Independent.Result {
        try await Independent.run(
            "openssl",
            [
                "s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", folder.file("ca.pem"), "-verify_return_error",
                "-brief",
            ] + options, stdin: Data())
    }

    @Test(
        .enabled(Independent.pythonReason) { await Independent.pythonAvailable || Independent.isCI },
        .enabled(Independent.opensslReason) { await Independent.opensslAvailable || Independent.isCI })
    func servesHTTPSOnlyWithTLS12OrLater() async throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folder.file("privkey.pem"))
        let server = try ServerProcess([
            "serve", "--config", folder.file("service.json"), "--port", "0", "--no-auth", "--idle-timeout", "1",
        ])
        let prefix = "offerkit: listening on https://127.0.0.1:"
        let line = try await server.waitForStderrLine(containing: prefix)
        let port = try #require(Int(line.dropFirst(prefix.count)), "no port in \(line)")
        let origin = "https://127.0.0.1:\(port)"

        // curl, trusting the CA alone, by address and by name.
        let health = try await Self.curl(folder, origin + "/healthz")
        #expect(health.status == 200, "\(health)")
        await #expect(try Self.curl(folder, "https://localhost:\(port)/healthz").status == 200)

        // A V2 promotional-offer signature over HTTPS, verified by PyJWT and cryptography.
        let signed = try await Self.curl(
            folder, origin + ServeCommandTests.signPath,
            [
                "--header", "Content-Type: application/json", "--data",
                ServeCommandTests.offerBody(bundleId: DemoKey.bundleId),
            ])
        #expect(signed.status == 200, "\(signed)")
        let jws = try #require(JSON.parse(signed.body)?["jws"]?.string, "\(signed)")
        let verified = try await Independent.verifyWithPython([(jws, "promotional-offer")])
        #expect(verified.first?.claims["bid"]?.string == DemoKey.bundleId)

        // A signed Get Retention Message request, as Apple posts it: answered with a verified offer.
        _ = try folder.write(try RetentionServeTests.body(), to: "realtime.json")
        let answer = try await Self.curl(
            folder, origin + RetentionServeTests.path,
            ["--header", "Content-Type: application/json", "--data-binary", "@" + folder.file("realtime.json")])
        #expect(answer.status == 200, "\(answer)")
        let offer = try #require(
            JSON.parse(answer.body)?["promotionalOffer"]?["promotionalOfferSignatureV2"]?.string, "\(answer)")
        let claims = try JWSVerifier(publicKeyPEM: try String(contentsOfFile: DemoKey.publicKeyPath, encoding: .utf8))
            .verify(offer, as: .promotionalOffer).claims
        #expect(claims.offerIdentifier == "WINBACK50")

        // offerkit retention try-endpoint over HTTPS: the service's CA trusted with --ca-certificate; without
        // it the system's roots do not know the certificate, and the endpoint is not reached.
        try AppleTestChain.shared.chain.write(to: URL(fileURLWithPath: folder.file("chain")))
        let probe = [
            "retention", "try-endpoint", "--url", origin + RetentionServeTests.path, "--chain", folder.file("chain"),
            "--app-apple-id", String(RetentionExample.appAppleId), "--product-id", "com.example.offerkit.monthly",
            "--config", DemoKey.configPath, "--bundle-id", DemoKey.bundleId, "--timeout", "5",
        ]
        let trusted = try await CLI.run(probe + ["--ca-certificate", folder.file("ca.pem"), "--format", "json"])
        #expect(trusted.status == 0, "\(trusted)")
        #expect(trusted.json?["decision"]?.string == "promotionalOffer", "\(trusted)")
        #expect(trusted.json?["verified"]?.bool == true, "\(trusted)")
        let untrusted = try await CLI.run(probe)
        #expect(untrusted.status == 5 && untrusted.stderr.contains("could not be reached"), "\(untrusted)")
        let notPEM = try await CLI.run(probe + ["--ca-certificate", folder.file("service.json")])
        #expect(notPEM.status == 4 && notPEM.stderr.contains("--ca-certificate"), "\(notPEM)")

        // TLS 1.2 and 1.3 connect; TLS 1.1, offered by a client that allows it, is refused by the server.
        let tls12 = try await Self.handshake(folder, port: port, ["-tls1_2"])
        #expect(tls12.status == 0 && tls12.stderr.contains("TLSv1.2"), "\(tls12.stderr)")
        let tls13 = try await Self.handshake(folder, port: port, ["-tls1_3"])
        #expect(tls13.status == 0 && tls13.stderr.contains("TLSv1.3"), "\(tls13.stderr)")
        let tls11 = try await Self.handshake(folder, port: port, ["-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0"])
        #expect(tls11.status != 0, "\(tls11.stderr)")
        #expect(tls11.stderr.contains("protocol version"), "the server's alert: \(tls11.stderr)")

        // Plain HTTP on the TLS port is not served: the connection is closed without an HTTP answer.
        let plain = try HTTPConnection(port: port)
        try plain.send(HTTPConnection.head("GET", "/healthz"))
        let refused = await plain.readUntilClosed(seconds: 60)
        #expect(refused.closed)
        #expect(!String(decoding: refused.bytes, as: UTF8.self).contains("HTTP/1.1"), "\(refused.bytes)")

        // A client that connects and never starts (or finishes) its handshake is closed after the idle timeout.
        let silent = try HTTPConnection(port: port)
        let stalled = await silent.readUntilClosed(seconds: 60)
        #expect(stalled.closed && stalled.bytes.isEmpty, "\(stalled.bytes)")
        let half = try HTTPConnection(port: port)
        try half.send([0x16, 0x03, 0x01, 0x02, 0x00, 0x01])  // a ClientHello's first bytes, then nothing
        await #expect(half.readUntilClosed(seconds: 60).closed)

        server.terminate()
        let run = await server.waitForExit()
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains(#"CN=localhost, valid until "#), "the start line names it: \(run.stderr)")
        #expect(run.stderr.contains("offerkit: warning: the TLS certificate"), "a day is left: \(run.stderr)")
        #expect(!run.stderr.contains("PRIVATE KEY"), "\(run.stderr)")
        #expect(
            run.stderr.contains("key file \(folder.file("privkey.pem")) is readable by group or others (mode 644)"),
            "a TLS key others can read is warned of, as a signing key is: \(run.stderr)")
    }

    @Test func theFlagsOverrideTheConfiguration() async throws {
        // The configuration names files that do not exist; the flags' files are served.
        let folder = try Self.folder(tls: #""tls": {"certificateChain": "absent.pem", "privateKey": "absent.pem"},"#)
        defer { folder.remove() }
        let server = try ServerProcess([
            "serve", "--config", folder.file("service.json"), "--port", "0", "--no-auth",
            "--tls-certificate-chain", folder.file("fullchain.pem"), "--tls-private-key", folder.file("privkey.pem"),
        ])
        _ = try await server.waitForStderrLine(containing: "offerkit: listening on https://127.0.0.1:")
        server.terminate()
        await #expect(server.waitForExit().status == 0)
    }

    /// A mistake in the TLS flags or files: `arguments` after `serve --config … --port 0 --no-auth`,
    /// the folder's files changed by `prepare`, the exit status and what stderr says.
    struct Mistake: Sendable, CustomTestStringConvertible {
        let name: String
        let arguments: [String]
        let status: Int32
        let mentioning: [String]
        var tls = ""
        var prepare: @Sendable (TempDir, TestTLSCertificates) async throws -> Void = { _, _ in }
        var testDescription: String { name }
    }

    static let mistakes: [Mistake] = [
        Mistake(
            name: "a chain without a key", arguments: ["--tls-certificate-chain", "fullchain.pem"], status: 2,
            mentioning: ["--tls-certificate-chain: expected --tls-private-key too"]),
        Mistake(
            name: "a key without a chain", arguments: ["--tls-private-key", "privkey.pem"], status: 2,
            mentioning: ["--tls-private-key: expected --tls-certificate-chain too"]),
        Mistake(
            name: "an idle timeout of 0", arguments: ["--idle-timeout", "0"], status: 2,
            mentioning: ["--idle-timeout: expected 1-3600 seconds (found 0)"]),
        Mistake(
            name: "an unknown member of tls", arguments: [], status: 3, mentioning: ["tls", "certificateChain"],
            tls: #""tls": {"certificateChain": "fullchain.pem", "privateKey": "privkey.pem", "password": "x"},"#),
        Mistake(
            name: "tls without a private key", arguments: [], status: 3, mentioning: ["tls.privateKey"],
            tls: #""tls": {"certificateChain": "fullchain.pem"},"#),
        Mistake(
            name: "a missing chain file (configuration)", arguments: [], status: 3,
            mentioning: ["tls.certificateChain in", "missing.pem", "cannot be read"],
            tls: #""tls": {"certificateChain": "missing.pem", "privateKey": "privkey.pem"},"#),
        Mistake(
            name: "a missing key file (flag)",
            arguments: [
                "--tls-certificate-chain", "F:fullchain.pem",
                "--tls-private-key", "F:missing.pem",
            ], status: 3,
            mentioning: ["(--tls-private-key)", "cannot be read"]),
        Mistake(
            name: "a chain that is not PEM",
            arguments: [
                "--tls-certificate-chain", "F:ca.der",
                "--tls-private-key", "F:privkey.pem",
            ], status: 3,
            mentioning: ["(--tls-certificate-chain)", "expected PEM certificates", "found no PEM block"],
            prepare: { folder, _ in _ = try folder.write("not a certificate\n", to: "ca.der") }),
        Mistake(
            name: "a key where the chain goes",
            arguments: [
                "--tls-certificate-chain", "F:privkey.pem",
                "--tls-private-key", "F:privkey.pem",
            ], status: 3,
            mentioning: ["(--tls-certificate-chain)", "found a PRIVATE KEY block as block 1"]),
        Mistake(
            name: "a certificate where the key goes",
            arguments: [
                "--tls-certificate-chain", "F:fullchain.pem",
                "--tls-private-key", "F:fullchain.pem",
            ], status: 3,
            mentioning: ["(--tls-private-key)", "one unencrypted EC or RSA private key", "found no PRIVATE KEY block"]),
        Mistake(
            name: "another certificate's key",
            arguments: [
                "--tls-certificate-chain", "F:fullchain.pem",
                "--tls-private-key", "F:other.pem",
            ], status: 3,
            mentioning: [
                "(--tls-private-key)", "expected the private key of the server's certificate", "CN=localhost)",
            ],
            prepare: { folder, certificates in _ = try folder.write(try certificates.server().keyPEM, to: "other.pem") }
        ),
        Mistake(
            name: "an expired certificate",
            arguments: [
                "--tls-certificate-chain", "F:old.pem",
                "--tls-private-key", "F:old-key.pem",
            ], status: 3,
            mentioning: ["(--tls-certificate-chain)", "expired on"],
            prepare: { folder, certificates in
                let old = try certificates.server(
                    notValidBefore: Date().addingTimeInterval(-86_400 * 2),
                    notValidAfter: Date().addingTimeInterval(-60))
                _ = try folder.write(old.chainPEM, to: "old.pem")
                _ = try folder.write(old.keyPEM, to: "old-key.pem")
            }),
        Mistake(
            name: "a certificate not yet valid",
            arguments: [
                "--tls-certificate-chain", "F:new.pem",
                "--tls-private-key", "F:new-key.pem",
            ], status: 3,
            mentioning: ["(--tls-certificate-chain)", "is not valid until"],
            prepare: { folder, certificates in
                let new = try certificates.server(
                    notValidBefore: Date().addingTimeInterval(86_400),
                    notValidAfter: Date().addingTimeInterval(86_400 * 2))
                _ = try folder.write(new.chainPEM, to: "new.pem")
                _ = try folder.write(new.keyPEM, to: "new-key.pem")
            }),
        Mistake(
            name: "a key flattened to one line (echo $KEY > key.pem)",
            arguments: [
                "--tls-certificate-chain", "F:fullchain.pem",
                "--tls-private-key", "F:flat.pem",
            ], status: 3,
            mentioning: ["(--tls-private-key)", "found no PEM block", "a line of its own"],
            prepare: { folder, _ in
                let key = try String(contentsOfFile: folder.file("privkey.pem"), encoding: .utf8)
                _ = try folder.write(key.split(separator: "\n").joined(separator: " ") + "\n", to: "flat.pem")
            }),
        Mistake(
            name: "an encrypted key",
            arguments: [
                "--tls-certificate-chain", "F:fullchain.pem",
                "--tls-private-key", "F:encrypted.pem",
            ], status: 3,
            mentioning: ["(--tls-private-key)", "found an encrypted key"],
            prepare: { folder, _ in
                let encrypted = try await Independent.run(
                    "openssl",
                    [
                        "pkey", "-in", folder.file("privkey.pem"), "-aes256", "-passout", "pass:offerkit", "-out",
                        folder.file("encrypted.pem"),
                    ])
                try #require(encrypted.status == 0, "\(encrypted.stderr)")
            }),
    ]

    @Test(
        .enabled(Independent.opensslReason) { await Independent.opensslAvailable || Independent.isCI },
        arguments: mistakes)
    func aMistakeStopsTheStartNamingItsFieldOrFlag(_ mistake: Mistake) async throws {
        let folder = try mistake.tls.isEmpty ? Self.folder(tls: "") : Self.folder(tls: mistake.tls)
        defer { folder.remove() }
        try await mistake.prepare(folder, try Self.certificates.get())
        // "F:name" is the file `name` in the folder.
        let arguments = mistake.arguments.map { $0.hasPrefix("F:") ? folder.file(String($0.dropFirst(2))) : $0 }
        let result = try await CLI.run(
            ["serve", "--config", folder.file("service.json"), "--port", "0", "--no-auth"] + arguments)
        Expect.failure(result, status: mistake.status, mentioning: mistake.mentioning)
        // No key material: neither a PEM key block nor a line of the key's base64.
        let key = try String(contentsOfFile: folder.file("privkey.pem"), encoding: .utf8)
        for line in key.split(separator: "\n") where !line.hasPrefix("-----") {
            #expect(!result.stderr.contains(line), "\(result.stderr)")
        }
        #expect(!result.stderr.contains("PRIVATE KEY-----"), "\(result.stderr)")
    }
}
