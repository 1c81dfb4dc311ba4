import Foundation
import Testing

@testable import CLITestSupport

/// Every missing credential is reported in one message, with every place it can come from, so a
/// second run finds no further gap; and a config file's app entry is read strictly.
@Suite("offerkit missing credentials")
struct MissingCredentialTests {
    static let issuerPlaces = ["issuer ID (--issuer-id", "OFFERKIT_ISSUER_ID", "the config's issuerId"]
    static let bundlePlaces = ["bundle ID (--bundle-id", "OFFERKIT_BUNDLE_ID", "config file with one app"]
    static let keyPlaces = [
        "key (--key-file", "--key-env", "OFFERKIT_KEY_FILE", "OFFERKIT_KEY", "the config's keyFile",
    ]
    static let keyIdPlaces = ["key ID (--key-id", "OFFERKIT_KEY_ID", "the config's keyId"]

    /// The lines of stderr that are errors.
    static func errorLines(_ result: CLIResult) -> [Substring] {
        result.stderr.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("offerkit: ") }
    }

    @Test("--key-file alone: issuer ID and bundle ID are both named in one message")
    func keyFileAlone() async throws {
        let result = try await CLI.run(CredentialTests.signArguments + ["--key-file", DemoKey.privateCopy])
        Expect.failure(result, status: 3, mentioning: ["missing:"] + Self.issuerPlaces + Self.bundlePlaces)
        #expect(Self.errorLines(result).count == 1, "\(result)")
        #expect(!result.stderr.contains("key ID ("), "the key ID is inferred from the file name\n\(result)")
    }

    @Test("--issuer-id alone: the key, its key ID and the bundle ID are named in one message")
    func issuerAlone() async throws {
        let result = try await CLI.run(CredentialTests.signArguments + ["--issuer-id", DemoKey.issuerId])
        Expect.failure(result, status: 3, mentioning: Self.keyPlaces + Self.keyIdPlaces + Self.bundlePlaces)
        #expect(!result.stderr.contains("issuer ID ("), "\(result)")
        #expect(Self.errorLines(result).count == 1, "\(result)")
    }

    @Test("token connect-api with --bundle-id alone: the key, its key ID and the issuer ID in one message")
    func connectAPITokenNamesEverything() async throws {
        let result = try await CLI.run(["token", "connect-api", "--bundle-id", DemoKey.bundleId])
        Expect.failure(result, status: 3, mentioning: Self.keyPlaces + Self.keyIdPlaces + Self.issuerPlaces)
        #expect(Self.errorLines(result).count == 1, "\(result)")
        // An individual key has no issuer: only the key and its key ID are missing then.
        let individual = try await CLI.run(["token", "connect-api", "--individual", "--bundle-id", DemoKey.bundleId])
        Expect.failure(individual, status: 3, mentioning: Self.keyPlaces + Self.keyIdPlaces)
        #expect(!individual.stderr.contains("issuer ID ("), "\(individual)")
    }

    @Test("from the environment: the same list")
    func fromEnvironment() async throws {
        let result = try await CLI.run(
            CredentialTests.signArguments, environment: ["OFFERKIT_KEY_FILE": DemoKey.privateCopy])
        Expect.failure(result, status: 3, mentioning: Self.issuerPlaces + Self.bundlePlaces)
    }

    /// `key inspect` shows a key whose file name carries no key ID without one, rather than demanding
    /// an ID it does not need (it used to stop with "missing: key ID").
    @Test("a command that needs only the key asks for no issuer ID, no bundle ID and no key ID")
    func keyInspectNeedsOnlyTheKey() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let path = try folder.copyOfDemoKey(named: "my-key.p8", mode: 0o600)
        let result = try await CLI.run(["key", "inspect", "--key-file", path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("key ID:     none given (--key-id), and the file name has none"), "\(result)")
        #expect(!result.stderr.contains("issuer ID") && !result.stderr.contains("bundle ID ("), "\(result)")
        let json = try await CLI.run(["key", "inspect", "--key-file", path, "--format", "json"])
        #expect(json.json?["keyId"] == .null, "\(json)")
        #expect(json.json?["thumbprint"]?.string == DemoKey.key.jwkThumbprint, "\(json)")
        // From the file name, as Apple names keys.
        let named = try folder.copyOfDemoKey(named: "AuthKey_DEMOKEY123.p8", mode: 0o600)
        let inferred = try await CLI.run(["key", "inspect", "--key-file", named, "--format", "json"])
        #expect(inferred.json?["keyId"]?.string == "DEMOKEY123", "\(inferred)")
    }

    @Test("a config entry without issuerId: what neither it nor flags give is listed")
    func configWithoutIssuer() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        _ = try folder.copyOfDemoKey(named: "SubscriptionKey_DEMOKEY123.p8", mode: 0o600)
        let config = try folder.write(
            #"{"com.example.app": {"keyFile": "SubscriptionKey_DEMOKEY123.p8"}}"#, to: "config.json")
        let result = try await CLI.run(CredentialTests.signArguments + ["--config", config])
        Expect.failure(result, status: 3, mentioning: Self.issuerPlaces)
        #expect(!result.stderr.contains("bundle ID ("), "the config's only app gives the bundle ID\n\(result)")
    }

    @Test(
        "a config file is read strictly: duplicate apps, a bad key ID or a too-long bundle ID name the field",
        arguments: [
            (
                #"{"com.example.app": {"keyId": "DEMOKEY123"}, "com.example.app": {}}"#,
                ["duplicate", "com.example.app"]
            ),
            (#"{"com.example.app": {"keyId": "demokey123"}}"#, ["com.example.app.keyId", "10 upper-case"]),
            (#"{"com.example.app": {"issuerId": 7}}"#, ["com.example.app.issuerId", "expected a string"]),
            ("{\"\(String(repeating: "a", count: 256))\": {}}", ["not a bundle ID", "255 bytes"]),
        ])
    func strictConfig(text: String, mentioning: [String]) async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let config = try folder.write(text, to: "config.json")
        let result = try await CLI.run(CredentialTests.signArguments + ["--config", config])
        Expect.failure(result, status: 3, mentioning: ["config file"] + mentioning)
    }
}
