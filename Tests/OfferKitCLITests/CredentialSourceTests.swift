import Foundation
import OfferSigning
import Testing

@testable import CLITestSupport

/// Where credentials come from, without surprises: sources never mix (a config's key ID never
/// labels another key), a config only fills gaps, an empty secret is an error rather than the demo
/// key, `--key-file -` is the only reader of stdin, and a config field's typo is named.
@Suite("offerkit credential sources")
struct CredentialSourceTests {
    @Test("a key from the environment keeps its own key ID: the config's key ID never labels another key")
    func keyIdFollowsItsKey() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let other = try folder.copyOfDemoKey(named: "SubscriptionKey_AAAAAAAAAA.p8", mode: 0o600)
        let result = try await CLI.run(
            ["key", "inspect", "--format", "json", "--config", DemoKey.configPath],
            environment: ["OFFERKIT_KEY_FILE": other])
        Expect.success(result)
        #expect(result.json?["keyId"]?.string == "AAAAAAAAAA", "\(result)")
    }

    @Test("with every credential given, a config file that lacks the bundle ID is not consulted")
    func configOnlyFillsGaps() async throws {
        let result = try await CLI.run(
            CredentialTests.signArguments + DemoKey.flags.dropLast(2) + ["--bundle-id", "com.other.app"],
            environment: ["OFFERKIT_CONFIG": DemoKey.configPath])
        Expect.success(result)
    }

    @Test(
        "a set-but-empty OFFERKIT_* variable is a credential error, never the demo key",
        arguments: ["OFFERKIT_KEY", "OFFERKIT_KEY_FILE", "OFFERKIT_KEY_ID", "OFFERKIT_CONFIG"])
    func emptySecretFails(variable: String) async throws {
        let result = try await CLI.run(CredentialTests.signArguments, environment: [variable: ""])
        Expect.failure(result, status: 3, mentioning: [variable, "empty"])
        #expect(!result.stderr.lowercased().contains("demo key"))
    }

    @Test("--key-file - cannot share stdin with another input")
    func stdinServesOneInput() async throws {
        let key = Data(DemoKey.privatePEM.utf8)
        let identity = ["--key-id", DemoKey.keyId, "--issuer-id", DemoKey.issuerId, "--bundle-id", DemoKey.bundleId]
        let cases: [[String]] = [
            ["batch", "--key-file", "-"] + identity,
            ["sign", "advanced-commerce", "--request", "-", "--key-file", "-"] + identity,
            ["verify", "--jws-file", "-", "--key-file", "-"] + identity,
        ]
        for arguments in cases {
            let result = try await CLI.run(arguments, stdin: key)
            Expect.failure(result, status: 2, mentioning: ["stdin"])
        }
    }

    @Test("a misspelled config field is named, with the fields that exist")
    func configTypoIsNamed() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let config = try folder.write(
            #"{"com.example.offerkit.demo":{"keyFile":"k.p8","keyID":"DEMOKEY123"}}"#, to: "config.json")
        let result = try await CLI.run(["key", "inspect", "--config", config])
        Expect.failure(result, status: 3, mentioning: ["com.example.offerkit.demo.keyID", "keyId"])
    }

}
