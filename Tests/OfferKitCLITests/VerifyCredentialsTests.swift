import Foundation
import OfferSigning
import Testing

@testable import CLITestSupport

/// `offerkit verify` compares every credential given (`--key-id`, `--issuer-id`, `--bundle-id`, or
/// their `OFFERKIT_*` variables) with what the JWS or legacy signature names, and exits 1 naming
/// each difference and where the expected value came from; one the artifact cannot carry is a
/// usage error (exit 2). A config file's values pick the key and are not compared.
@Suite("offerkit verify: every credential given is compared")
struct VerifyCredentialsTests {
    static let otherKeyId = "MYKEY00001"
    static let otherIssuerId = "00000000-0000-4000-8000-000000000000"
    static let otherBundleId = "com.example.other"

    /// A JWS of each kind, signed by the CLI with the demo credentials.
    static func signed(_ arguments: [String]) async throws -> String {
        let result = try await CLI.run(arguments + DemoKey.flags)
        Expect.success(result)
        return result.output
    }

    static let kinds: [(name: String, arguments: [String], carriesApp: Bool)] = [
        ("promotional-offer", ["sign", "promotional-offer", "--product-id", "p", "--offer-identifier", "o"], true),
        (
            "introductory-offer-eligibility",
            ["sign", "intro-eligibility", "--product-id", "p", "--allow-intro", "true", "--transaction-id", "1"], true
        ),
        ("server-api-token", ["token", "server-api"], true),
        ("connect-api-token", ["token", "connect-api"], false),
    ]

    @Test("the issue's run: a JWS naming other kid, iss and bid exits 1 naming all three and their flags")
    func reproduction() async throws {
        let jws = try await Self.signed(["sign", "promotional-offer", "--product-id", "p", "--offer-identifier", "o"])
        let flags = [
            "--key-file", DemoKey.privateCopy, "--key-id", Self.otherKeyId, "--issuer-id", Self.otherIssuerId,
            "--bundle-id", Self.otherBundleId,
        ]
        let result = try await CLI.run(["verify", "--jws", jws] + flags)
        Expect.failure(
            result, status: 1,
            mentioning: [
                #"kid is "DEMOKEY123", expected "MYKEY00001" (--key-id)"#,
                #"iss is "\#(DemoKey.issuerId)", expected "\#(Self.otherIssuerId)" (--issuer-id)"#,
                #"bid is "com.example.offerkit.demo", expected "com.example.other" (--bundle-id)"#,
            ])
        let json = try await CLI.run(["verify", "--jws", jws, "--format", "json"] + flags)
        #expect(json.status == 1, "\(json)")
        #expect(json.json?["valid"]?.bool == false, "\(json)")
        #expect(json.json?["reason"]?.string?.contains(#"kid is "DEMOKEY123""#) == true, "\(json)")
    }

    @Test("each kind: the right credentials verify; each other one alone exits 1, with the key or --public-key")
    func eachKindEachCredential() async throws {
        for kind in Self.kinds {
            let jws = try await Self.signed(kind.arguments)
            let identity =
                [("--key-id", DemoKey.keyId), ("--issuer-id", DemoKey.issuerId)]
                + (kind.carriesApp ? [("--bundle-id", DemoKey.bundleId)] : [])
            let others = [
                "--key-id": Self.otherKeyId, "--issuer-id": Self.otherIssuerId, "--bundle-id": Self.otherBundleId,
            ]
            for key in [["--key-file", DemoKey.privateCopy], ["--public-key", DemoKey.publicKeyPath]] {
                let right = identity.flatMap { [$0.0, $0.1] }
                Expect.success(try await CLI.run(["verify", "--jws", jws] + key + right))
                for (flag, _) in identity {
                    let changed = identity.flatMap { [$0.0, $0.0 == flag ? others[flag] ?? "" : $0.1] }
                    let result = try await CLI.run(["verify", "--jws", jws] + key + changed)
                    Expect.failure(result, status: 1, mentioning: ["expected \"\(others[flag] ?? "")\" (\(flag))"])
                }
            }
        }
    }

    @Test("an OFFERKIT_* variable is compared as its flag is, and the message names the variable")
    func environmentIsCompared() async throws {
        let jws = try await Self.signed(["token", "server-api"])
        let result = try await CLI.run(
            ["verify", "--jws", jws, "--public-key", DemoKey.publicKeyPath],
            environment: ["OFFERKIT_BUNDLE_ID": Self.otherBundleId, "OFFERKIT_KEY_ID": DemoKey.keyId])
        Expect.failure(result, status: 1, mentioning: [#"expected "com.example.other" (OFFERKIT_BUNDLE_ID)"#])
        // The flag wins over the variable, and is what is compared.
        let flag = try await CLI.run(
            ["verify", "--jws", jws, "--public-key", DemoKey.publicKeyPath, "--bundle-id", DemoKey.bundleId],
            environment: ["OFFERKIT_BUNDLE_ID": Self.otherBundleId])
        Expect.success(flag)
    }

    @Test("a credential the artifact cannot carry is a usage error naming it, never ignored")
    func notApplicable() async throws {
        let team = try await Self.signed(["token", "connect-api"])
        let bundle = try await CLI.run(
            ["verify", "--jws", team, "--public-key", DemoKey.publicKeyPath, "--bundle-id", DemoKey.bundleId])
        Expect.failure(bundle, status: 2, mentioning: ["--bundle-id cannot apply", "App Store Connect", "no bid"])
        let variable = try await CLI.run(
            ["verify", "--jws", team, "--public-key", DemoKey.publicKeyPath],
            environment: ["OFFERKIT_BUNDLE_ID": DemoKey.bundleId])
        Expect.failure(variable, status: 2, mentioning: ["OFFERKIT_BUNDLE_ID cannot apply", "unset it"])

        let individual = try await CLI.run(["token", "connect-api", "--individual"] + DemoKey.keyFlags)
        Expect.success(individual)
        let issuer = try await CLI.run(
            [
                "verify", "--jws", individual.output, "--public-key", DemoKey.publicKeyPath, "--issuer-id",
                DemoKey.issuerId,
            ]
        )
        Expect.failure(issuer, status: 2, mentioning: ["--issuer-id cannot apply", "individual"])

        // Refused before the signature is read: the flags alone show it cannot apply.
        let legacy = try await CLI.run(VerifyCommandTests.legacyArguments(signature: "MEUCIQ==") + DemoKey.flags)
        Expect.failure(legacy, status: 2, mentioning: ["--issuer-id cannot apply", "legacy", "no issuer ID"])
        let legacyVariable = try await CLI.run(
            VerifyCommandTests.legacyArguments(signature: "MEUCIQ==") + DemoKey.flags(without: "--issuer-id"),
            environment: ["OFFERKIT_ISSUER_ID": DemoKey.issuerId])
        Expect.failure(legacyVariable, status: 2, mentioning: ["OFFERKIT_ISSUER_ID cannot apply"])
    }

    @Test("legacy: the object's keyId and bundleId are compared with --key-id and --bundle-id")
    func legacyObject() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let (path, _) = try await LegacySignatureJSONTests.signJSON(folder)
        let publicKey = ["verify", "--legacy-signature-file", path, "--public-key", DemoKey.publicKeyPath]
        Expect.success(try await CLI.run(publicKey + ["--key-id", DemoKey.keyId, "--bundle-id", DemoKey.bundleId]))
        let keyId = try await CLI.run(publicKey + ["--key-id", Self.otherKeyId])
        Expect.failure(keyId, status: 1, mentioning: [#"keyId is "DEMOKEY123", expected "MYKEY00001" (--key-id)"#])
        let withKey = try await CLI.run(
            ["verify", "--legacy-signature-file", path, "--key-file", DemoKey.privateCopy, "--key-id", Self.otherKeyId])
        Expect.failure(withKey, status: 1, mentioning: [#"keyId is "DEMOKEY123", expected "MYKEY00001" (--key-id)"#])
    }

    @Test("a config file picks the key: its bundle ID is not compared (one key signs for every app of a team)")
    func configIsNotCompared() async throws {
        let jws = try await CLI.run(
            ["sign", "promotional-offer", "--product-id", "p", "--offer-identifier", "o"]
                + DemoKey.flags(without: "--bundle-id") + ["--bundle-id", Self.otherBundleId])
        Expect.success(jws)
        let result = try await CLI.run(["verify", "--jws", jws.output, "--config", DemoKey.configPath])
        Expect.success(result)
        #expect(result.stdout.contains(Self.otherBundleId), "\(result)")
    }
}
