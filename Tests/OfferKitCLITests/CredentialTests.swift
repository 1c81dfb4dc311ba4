import Foundation
import OfferSigning
import Testing

@testable import CLITestSupport

/// Where the key, key ID, issuer ID and bundle ID come from: flags, environment, config file,
/// stdin, `OFFERKIT_KEY`; their precedence; key ID inference; the demo key and permission warnings.
@Suite("offerkit credentials")
struct CredentialTests {
    static let signArguments = [
        "sign", "promotional-offer", "--product-id", Fixed.productId, "--offer-identifier", Fixed.offerId,
    ]

    /// Signs a promotional offer and returns the decoded JWS (after checking it verifies with the demo key).
    static func sign(
        _ extra: [String], environment: [String: String] = [:], stdin: Data? = nil, cwd: URL? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (result: CLIResult, jws: DecodedJWS) {
        let result = try await CLI.run(signArguments + extra, environment: environment, stdin: stdin, cwd: cwd)
        Expect.success(result, sourceLocation: sourceLocation)
        let jws = try #require(DecodedJWS(result.output), "not a JWS\n\(result)", sourceLocation: sourceLocation)
        #expect(
            (try? JWSVerifier(key: DemoKey.key).verify(result.output, as: .promotionalOffer)) != nil,
            "signed with the demo key", sourceLocation: sourceLocation)
        return (result, jws)
    }

    static func expectIdentity(
        _ jws: DecodedJWS, kid: String = DemoKey.keyId, iss: String = DemoKey.issuerId,
        bid: String = DemoKey.bundleId, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(jws.header["kid"]?.string == kid, "kid", sourceLocation: sourceLocation)
        #expect(jws.claims["iss"]?.string == iss, "iss", sourceLocation: sourceLocation)
        #expect(jws.claims["bid"]?.string == bid, "bid", sourceLocation: sourceLocation)
    }

    /// A config file in its own folder, with a 0600 copy of the demo key next to it.
    static func makeConfig(
        bundleId: String = "com.example.config", keyId: String = "CFGKEY0001",
        issuerId: String = "11111111-2222-4333-8444-555555555555", keyFile: String = "SubscriptionKey_CFG.p8"
    ) throws -> (folder: TempDir, path: String) {
        let folder = try TempDir.make()
        _ = try folder.copyOfDemoKey(named: "SubscriptionKey_CFG.p8", mode: 0o600)
        let config = #"{"\#(bundleId)":{"keyFile":"\#(keyFile)","keyId":"\#(keyId)","issuerId":"\#(issuerId)"}}"#
        return (folder, try folder.write(config, to: "offerkit.json"))
    }

    // MARK: demo key

    @Test func withoutCredentialsTheDemoKeyIsUsedWithAWarning() async throws {
        let (result, jws) = try await Self.sign([])
        Self.expectIdentity(jws)
        #expect(result.stderr.lowercased().contains("demo key"), "warning about the demo key\n\(result)")

        let token = try await CLI.run(["token", "server-api", "--format", "json"])
        Expect.success(token)
        #expect(token.stderr.lowercased().contains("demo key"), "\(token)")
        let inspect = try await CLI.run(["key", "inspect"])
        Expect.success(inspect)
        #expect(inspect.stderr.lowercased().contains("demo key"), "\(inspect)")
    }

    @Test func noDemoWarningWhenCredentialsAreGiven() async throws {
        await Expect.noDemoWarning(try Self.sign(DemoKey.flags).result)
        await Expect.noDemoWarning(try Self.sign([], environment: DemoKey.environment).result)
        let (folder, config) = try Self.makeConfig()
        defer { folder.remove() }
        await Expect.noDemoWarning(try Self.sign(["--config", config, "--bundle-id", "com.example.config"]).result)
    }

    // MARK: sources

    @Test func fromFlags() async throws {
        let (result, jws) = try await Self.sign(DemoKey.flags)
        Self.expectIdentity(jws)
        #expect(result.stderr.isEmpty, "no warnings for a 0600 key given by flags\n\(result)")
    }

    @Test func fromEnvironment() async throws {
        let (_, jws) = try await Self.sign([], environment: DemoKey.environment)
        Self.expectIdentity(jws)
    }

    @Test func fromConfigFileRelativeToItsFolder() async throws {
        let (folder, config) = try Self.makeConfig()
        defer { folder.remove() }
        let elsewhere = try TempDir.make()
        defer { elsewhere.remove() }
        // The key file is found next to the config, not in the working directory.
        let (_, jws) = try await Self.sign(
            ["--config", config, "--bundle-id", "com.example.config"], cwd: elsewhere.url)
        Self.expectIdentity(
            jws, kid: "CFGKEY0001", iss: "11111111-2222-4333-8444-555555555555", bid: "com.example.config")

        let (_, fromEnv) = try await Self.sign(
            [], environment: ["OFFERKIT_CONFIG": config, "OFFERKIT_BUNDLE_ID": "com.example.config"],
            cwd: elsewhere.url)
        Self.expectIdentity(
            fromEnv, kid: "CFGKEY0001", iss: "11111111-2222-4333-8444-555555555555", bid: "com.example.config")
    }

    @Test func theDemoConfigInKeysExample() async throws {
        let (_, jws) = try await Self.sign(["--config", DemoKey.configPath, "--bundle-id", DemoKey.bundleId])
        Self.expectIdentity(jws)
    }

    @Test func keyOnStdin() async throws {
        let identity = ["--key-id", DemoKey.keyId, "--issuer-id", DemoKey.issuerId, "--bundle-id", DemoKey.bundleId]
        let (result, jws) = try await Self.sign(["--key-file", "-"] + identity, stdin: Data(DemoKey.privatePEM.utf8))
        Self.expectIdentity(jws)
        Expect.noDemoWarning(result)
        let (_, bodyOnly) = try await Self.sign(["--key-file", "-"] + identity, stdin: Data(DemoKey.base64Body.utf8))
        Self.expectIdentity(bodyOnly)
    }

    @Test(arguments: ["pem", "pem-escaped-newlines", "base64-body"])
    func keyInOFFERKIT_KEY(form: String) async throws {
        let value =
            switch form {
            case "pem": DemoKey.privatePEM
            case "pem-escaped-newlines": DemoKey.privatePEM.replacingOccurrences(of: "\n", with: "\\n")
            default: DemoKey.base64Body
            }
        let environment = [
            "OFFERKIT_KEY": value, "OFFERKIT_KEY_ID": DemoKey.keyId, "OFFERKIT_ISSUER_ID": DemoKey.issuerId,
            "OFFERKIT_BUNDLE_ID": DemoKey.bundleId,
        ]
        let (result, jws) = try await Self.sign([], environment: environment)
        Self.expectIdentity(jws)
        Expect.noDemoWarning(result)
    }

    @Test func keyInANamedVariable() async throws {
        let (_, jws) = try await Self.sign(
            [
                "--key-env", "MY_APP_KEY", "--key-id", DemoKey.keyId, "--issuer-id", DemoKey.issuerId, "--bundle-id",
                DemoKey.bundleId,
            ], environment: ["MY_APP_KEY": DemoKey.privatePEM])
        Self.expectIdentity(jws)
        let (_, body) = try await Self.sign(
            [
                "--key-env", "MY_APP_KEY", "--key-id", DemoKey.keyId, "--issuer-id", DemoKey.issuerId, "--bundle-id",
                DemoKey.bundleId,
            ], environment: ["MY_APP_KEY": DemoKey.base64Body])
        Self.expectIdentity(body)
    }

    // MARK: precedence

    @Test func flagsBeatTheEnvironment() async throws {
        // A malformed key ID in the environment does not matter when the flag is right.
        var environment = DemoKey.environment
        environment["OFFERKIT_KEY_ID"] = "not-a-key-id"
        let (_, malformed) = try await Self.sign(["--key-id", DemoKey.keyId], environment: environment)
        Self.expectIdentity(malformed)

        // Every field: the flag's value ends up in the JWS.
        let environmentValues = [
            "OFFERKIT_KEY_FILE": "/nonexistent/SubscriptionKey_ENVKEY0001.p8", "OFFERKIT_KEY_ID": "ENVKEY0001",
            "OFFERKIT_ISSUER_ID": "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee", "OFFERKIT_BUNDLE_ID": "com.example.env",
            "OFFERKIT_KEY": "garbage, not a key",
        ]
        let (_, jws) = try await Self.sign(
            [
                "--key-file", DemoKey.privateCopy, "--key-id", "FLAGKEY001", "--issuer-id", DemoKey.issuerId,
                "--bundle-id", "com.example.flag",
            ], environment: environmentValues)
        Self.expectIdentity(jws, kid: "FLAGKEY001", bid: "com.example.flag")
    }

    @Test func environmentBeatsTheConfigFile() async throws {
        let (folder, config) = try Self.makeConfig(
            bundleId: "com.example.config", keyId: "CFGKEY0001", keyFile: "missing/SubscriptionKey_CFGKEY0001.p8")
        defer { folder.remove() }
        let environment = [
            "OFFERKIT_CONFIG": config, "OFFERKIT_BUNDLE_ID": "com.example.config",
            "OFFERKIT_KEY_FILE": DemoKey.privateCopy, "OFFERKIT_KEY_ID": "ENVKEY0001",
            "OFFERKIT_ISSUER_ID": DemoKey.issuerId,
        ]
        let (_, jws) = try await Self.sign([], environment: environment)
        Self.expectIdentity(jws, kid: "ENVKEY0001", bid: "com.example.config")
    }

    @Test func flagsBeatTheConfigFile() async throws {
        let (folder, config) = try Self.makeConfig(bundleId: "com.example.config", keyId: "CFGKEY0001")
        defer { folder.remove() }
        let (_, jws) = try await Self.sign(
            [
                "--config", config, "--bundle-id", "com.example.config", "--key-id", "FLAGKEY001", "--issuer-id",
                DemoKey.issuerId,
            ])
        Self.expectIdentity(jws, kid: "FLAGKEY001", bid: "com.example.config")
    }

    // MARK: key ID inference

    @Test(arguments: [
        ("SubscriptionKey_ABCDE12345.p8", "ABCDE12345"), ("AuthKey_XYZ9876543.p8", "XYZ9876543"),
    ])
    func keyIdIsInferredFromAppleFileNames(name: String, keyId: String) async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let path = try folder.copyOfDemoKey(named: name, mode: 0o600)
        let identity = ["--issuer-id", DemoKey.issuerId, "--bundle-id", DemoKey.bundleId]
        let (_, jws) = try await Self.sign(["--key-file", path] + identity)
        #expect(jws.header["kid"]?.string == keyId)
        let (_, fromEnv) = try await Self.sign(identity, environment: ["OFFERKIT_KEY_FILE": path])
        #expect(fromEnv.header["kid"]?.string == keyId)
        let (_, explicit) = try await Self.sign(["--key-file", path, "--key-id", DemoKey.keyId] + identity)
        #expect(explicit.header["kid"]?.string == DemoKey.keyId, "a given key ID beats the file name")
    }

    @Test func noKeyIdInferableExitsThree() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let path = try folder.copyOfDemoKey(named: "my-key.p8", mode: 0o600)
        let result = try await CLI.run(
            Self.signArguments + ["--key-file", path, "--issuer-id", DemoKey.issuerId, "--bundle-id", DemoKey.bundleId])
        Expect.failure(result, status: 3, mentioning: ["key id"])
        let fromStdin = try await CLI.run(
            Self.signArguments + ["--key-file", "-", "--issuer-id", DemoKey.issuerId, "--bundle-id", DemoKey.bundleId],
            stdin: Data(DemoKey.privatePEM.utf8))
        Expect.failure(fromStdin, status: 3, mentioning: ["key id"])
    }

    // MARK: permissions

    @Test(arguments: [0o644, 0o640, 0o604])
    func keyFileReadableByOthersDrawsAWarning(mode: Int) async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let path = try folder.copyOfDemoKey(named: "SubscriptionKey_DEMOKEY123.p8", mode: mode)
        #expect(FileMode.of(path) == mode)
        let (result, _) = try await Self.sign(
            ["--key-file", path, "--issuer-id", DemoKey.issuerId, "--bundle-id", DemoKey.bundleId])
        #expect(result.stderr.contains("readable by"), "mode \(String(mode, radix: 8)) warns\n\(result)")
        #expect(!result.stderr.lowercased().contains("demo key"))

        // The same key file named by the environment or by a config file.
        let (fromEnv, _) = try await Self.sign(
            [],
            environment: [
                "OFFERKIT_KEY_FILE": path, "OFFERKIT_ISSUER_ID": DemoKey.issuerId,
                "OFFERKIT_BUNDLE_ID": DemoKey.bundleId,
            ])
        #expect(fromEnv.stderr.contains("readable by"), "\(fromEnv)")
        let config = try folder.write(
            #"{"\#(DemoKey.bundleId)":{"keyFile":"SubscriptionKey_DEMOKEY123.p8","keyId":"DEMOKEY123","issuerId":"\#(DemoKey.issuerId)"}}"#,
            to: "config.json")
        let (fromConfig, _) = try await Self.sign(["--config", config, "--bundle-id", DemoKey.bundleId])
        #expect(fromConfig.stderr.contains("readable by"), "\(fromConfig)")
    }

    @Test func keyFileWithMode0600DrawsNoWarning() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let path = try folder.copyOfDemoKey(named: "SubscriptionKey_DEMOKEY123.p8", mode: 0o600)
        let (result, _) = try await Self.sign(
            ["--key-file", path, "--issuer-id", DemoKey.issuerId, "--bundle-id", DemoKey.bundleId])
        #expect(!result.stderr.contains("readable by"), "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }
}
