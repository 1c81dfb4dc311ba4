import AppleTestChain
import Foundation
import Testing

@testable import CLITestSupport

/// `offerkit verify-apple`: every case of the Apple-signed test chain through the CLI (exit 0 or
/// 1 as the library answers), JSON with Apple's field names, kinds read from the payload, usage
/// and input errors.
@Suite("offerkit verify-apple")
struct VerifyAppleCommandTests {
    struct Cases: Decodable {
        struct Case: Decodable {
            var name: String
            var kind: String
            var jws: String
            var environment: String
            var bundleId: String?
            var appAppleId: Int64?
            var expect: String
        }
        var roots: [String: String]
        var cases: [Case]
    }

    static let cases: Cases = {
        let path = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/apple-signed/cases.json")
        do {
            return try JSONDecoder().decode(Cases.self, from: Data(contentsOf: path))
        } catch {
            fatalError("\(path.path) does not load: \(error)")
        }
    }()

    static func testCase(_ name: String) throws -> Cases.Case {
        try #require(cases.cases.first { $0.name == name })
    }

    /// The flags of a case's verifier settings, with the test root.
    static func flags(_ testCase: Cases.Case, root: String) -> [String] {
        let environments = [
            "Sandbox": "sandbox", "Production": "production", "Xcode": "xcode", "LocalTesting": "local-testing",
        ]
        return [
            "--kind", testCase.kind, "--root-certificate", root, "--environment", environments[testCase.environment]!,
        ]
            + (testCase.bundleId.map { ["--bundle-id", $0] } ?? [])
            + (testCase.appAppleId.map { ["--app-apple-id", String($0)] } ?? [])
    }

    @Test func everyCaseExitsAsTheLibraryAnswers() async throws {
        let directory = try TempDir.make()
        defer { directory.remove() }
        let root = try directory.write(Self.cases.roots["test"] ?? "", to: "root.pem")
        for testCase in Self.cases.cases {
            let file = try directory.write(testCase.jws + "\n", to: "\(testCase.name).jws")
            let result = try await CLI.run(["verify-apple", "--jws-file", file] + Self.flags(testCase, root: root))
            if testCase.expect == "accept" {
                #expect(result.status == 0, "\(testCase.name)\n\(result)")
                #expect(result.stdout.hasPrefix("verified: \(testCase.kind)"), "\(testCase.name)\n\(result)")
            } else {
                Expect.failure(result, status: 1, mentioning: ["verification failed"])
                #expect(!result.stderr.contains(testCase.jws.prefix(40)), "\(testCase.name): the JWS was echoed")
            }
        }
    }

    @Test("a crit or b64 header, a padded or non-canonical part and broken key usage exit 1 by name; high-S is 0")
    func strictReading() async throws {
        let chain = AppleTestChain.shared
        let directory = try TempDir.make()
        defer { directory.remove() }
        let root = try directory.write(chain.rootPEM, to: "root.pem")
        let payload = RealtimeRequestPayload().json
        let flags = ["--root-certificate", root, "--environment", "sandbox"]
        let refused: [(AppleTestChain.Variant, [String])] = [
            (.critUnknown, ["crit", #"["exp"]"#]), (.critB64False, ["crit", #"["b64"]"#]), (.b64True, ["b64"]),
            (.paddedSignature, ["signature", "padded"]), (.signatureTrailingBits, ["signature", "canonical"]),
            (.intermediateWithoutKeyCertSign, ["intermediate", "keyCertSign"]),
            (.intermediateWithoutKeyUsage, ["intermediate", "no keyUsage"]),
            (.leafWithoutDigitalSignature, ["leaf", "digitalSignature"]),
            (.leafWithKeyCertSign, ["leaf", "keyCertSign"]),
        ]
        for (variant, words) in refused {
            let file = try directory.write(try chain.sign(payload, variant: variant), to: "\(variant.rawValue).jws")
            for kind in [["--kind", "realtime-request"], []] {
                let result = try await CLI.run(["verify-apple", "--jws-file", file] + kind + flags)
                Expect.failure(result, status: 1, mentioning: ["verification failed"] + words)
            }
        }
        // The App Store signs with high S about half the time: accepted, as Apple's verifier accepts it.
        let highS = try directory.write(AppleTestChain.highS(try chain.sign(payload)), to: "high-s.jws")
        let accepted = try await CLI.run(["verify-apple", "--jws-file", highS] + flags)
        Expect.success(accepted)
        #expect(accepted.stdout.hasPrefix("verified: realtime-request"), "\(accepted)")
    }

    @Test func jsonIsThePayloadWithApplesNames() async throws {
        let directory = try TempDir.make()
        defer { directory.remove() }
        let root = try directory.write(Self.cases.roots["test"] ?? "", to: "root.pem")
        let notification = try Self.testCase("notification")
        let file = try directory.write(notification.jws, to: "n.jws")
        let result = try await CLI.run(
            ["verify-apple", "--jws-file", file, "--format", "json"] + Self.flags(notification, root: root))
        Expect.success(result)
        let json = try #require(result.json, "\(result)")
        #expect(json["valid"]?.bool == true)
        #expect(json["kind"]?.string == "notification")
        #expect(json["type"]?.string == "ResponseBodyV2DecodedPayload")
        #expect(json["payload"]?["notificationType"]?.string == "DID_RENEW")
        #expect(json["payload"]?["data"]?["appAppleId"]?.int == 1_234_567_890)
        #expect(json["transactionInfo"]?["transactionId"]?.string == "2000000912345678")
        #expect(json["transactionInfo"]?["price"]?.int == 4990)
        #expect(json["renewalInfo"]?["autoRenewStatus"]?.int == 1)

        // A refusal in JSON: valid false and the reason, exit 1.
        let wrong = try Self.testCase("wrong-root")
        let refused = try await CLI.run(
            ["verify-apple", "--jws-file", try directory.write(wrong.jws, to: "w.jws"), "--format", "json"]
                + Self.flags(wrong, root: root))
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.json?["valid"]?.bool == false)
        #expect(refused.json?["reason"]?.string?.contains("trusted root") == true, "\(refused)")
    }

    @Test func kindIsReadFromThePayloadAndStdinWorks() async throws {
        let directory = try TempDir.make()
        defer { directory.remove() }
        let root = try directory.write(Self.cases.roots["test"] ?? "", to: "root.pem")
        for name in ["transaction", "renewal-info", "notification", "realtime-request"] {
            let testCase = try Self.testCase(name)
            var flags = Self.flags(testCase, root: root)
            flags.removeFirst(2)  // no --kind
            let result = try await CLI.run(["verify-apple", "--jws-file", "-"] + flags, stdin: Data(testCase.jws.utf8))
            Expect.success(result)
            #expect(result.stdout.hasPrefix("verified: \(name) ("), "\(result)")
        }
    }

    @Test func appleRootCAG3IsTheDefault() async throws {
        let directory = try TempDir.make()
        defer { directory.remove() }
        let file = try directory.write(try Self.testCase("transaction").jws, to: "t.jws")
        let result = try await CLI.run([
            "verify-apple", "--jws-file", file, "--bundle-id", "com.example.offerkit", "--environment", "sandbox",
        ])
        Expect.failure(result, status: 1, mentioning: ["Apple Root CA - G3"])
    }

    @Test func usageAndInputErrors() async throws {
        let directory = try TempDir.make()
        defer { directory.remove() }
        let root = try directory.write(Self.cases.roots["test"] ?? "", to: "root.pem")
        let transaction = try directory.write(try Self.testCase("transaction").jws, to: "t.jws")
        // Production needs the App Apple ID; a transaction needs the bundle ID.
        await Expect.failure(
            try await CLI.run(["verify-apple", "--jws-file", transaction, "--root-certificate", root]), status: 2,
            mentioning: ["--app-apple-id"])
        await Expect.failure(
            try await CLI.run([
                "verify-apple", "--jws-file", transaction, "--root-certificate", root, "--environment", "sandbox",
            ]), status: 2, mentioning: ["--bundle-id"])
        await Expect.failure(
            try await CLI.run(["verify-apple", "--jws-file", transaction, "--environment", "staging"]), status: 2)
        // A root that is not a certificate, a JWS over 64 KiB, a JWS that is not UTF-8: exit 4.
        await Expect.failure(
            try await CLI.run([
                "verify-apple", "--jws-file", transaction, "--root-certificate", transaction, "--environment",
                "sandbox", "--bundle-id", "com.example.offerkit",
            ]), status: 4, mentioning: ["--root-certificate", "not a DER certificate"])
        await Expect.failure(
            try await CLI.run(
                ["verify-apple", "--jws-file", "-", "--environment", "sandbox"],
                stdin: Data(repeating: UInt8(ascii: "a"), count: 70_000)), status: 4, mentioning: ["64 KiB"])
        await Expect.failure(
            try await CLI.run(
                ["verify-apple", "--jws-file", "-", "--environment", "sandbox"], stdin: Data([0xFF, 0xFE])),
            status: 4, mentioning: ["UTF-8"])
        // A missing file is I/O (exit 5); a payload of no known kind asks for --kind.
        await Expect.failure(
            try await CLI.run(["verify-apple", "--jws-file", directory.file("missing.jws"), "--environment", "sandbox"]
            ),
            status: 5)
    }
}
