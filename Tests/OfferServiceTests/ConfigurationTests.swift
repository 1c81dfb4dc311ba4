import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OfferSigning
import Testing

@testable import OfferService

@Suite("Configuration: files, errors, key loading, readiness, loopback")
struct ConfigurationTests {
    static let issuer = ServiceFixtures.issuerId
    static let digest = String(repeating: "ab", count: 32)

    /// The JSON text of an app entry for `bundleId`.
    static func app(
        _ bundleId: String = "com.example.app", keyFile: String = "k.p8", keyId: String = "DEMOKEY123",
        issuerId: String = issuer
    ) -> String {
        #""\#(bundleId)": {"keyFile": "\#(keyFile)", "keyId": "\#(keyId)", "issuerId": "\#(issuerId)"}"#
    }

    /// An API key entry.
    static func apiKey(
        _ name: String = "billing", sha256: String = digest, scopes: String = #"["*"]"#, bundleIds: String = #"["*"]"#
    ) -> String {
        #"{"name": "\#(name)", "sha256": "\#(sha256)", "scopes": \#(scopes), "bundleIds": \#(bundleIds)}"#
    }

    static let otherDigest = String(repeating: "cd", count: 32)

    @Test("a deprecated scope spelling works as the current name and leaves a note naming the field")
    func deprecatedScopeSpellingIsNoted() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "service.json",
            #"{"apps": {\#(Self.app())}, "apiKeys": [\#(Self.apiKey(scopes: #"["promotional-offer-v1", "metrics"]"#))]}"#
        )
        let configuration = try ServiceConfiguration.load(path: path, environment: [:])
        #expect(configuration.apiKeys[0].scopes == [.legacyPromotionalOffer, .metrics])
        #expect(configuration.deprecationNotes.count == 1, "\(configuration.deprecationNotes)")
        #expect(
            configuration.deprecationNotes.first?.contains("apiKeys[0].scopes[0]") == true
                && configuration.deprecationNotes.first?.contains("legacy-promotional-offer") == true)
    }

    @Test("a valid two-app configuration: relative key files resolve against the file's folder")
    func validConfiguration() async throws {
        let folder = try TemporaryFolder()
        let pem = try String(contentsOfFile: ServiceFixtures.keyFile, encoding: .utf8)
        try folder.write("keys/SubscriptionKey_DEMOKEY123.p8", pem)
        let admin = APIKey.generate(name: "admin")
        let path = try folder.write(
            "service.json",
            """
            {
              "apps": {
                \(Self.app(ServiceFixtures.app, keyFile: "keys/SubscriptionKey_DEMOKEY123.p8")),
                \(Self.app(ServiceFixtures.otherApp, keyFile: ServiceFixtures.keyFile))
              },
              "connectApiKey": {"keyFile": "keys/SubscriptionKey_DEMOKEY123.p8", "keyId": "DEMOKEY123"},
              "apiKeys": [
                \(Self.apiKey("admin", sha256: admin.key.digestHex)),
                \(Self.apiKey("billing", sha256: Self.otherDigest.uppercased(), scopes: #"["promotional-offer", "metrics"]"#,
                    bundleIds: "[\"\(ServiceFixtures.app)\"]"))
              ],
              "limits": {"maxBodyBytes": 2048, "requestTimeoutSeconds": 5, "requestsPerSecond": 7, "burst": 9,
                         "maxConnections": 300, "backlog": 64}
            }
            """)
        let configuration = try ServiceConfiguration.load(path: path, environment: [:])
        let demoKeyFile = folder.url.appendingPathComponent("keys/SubscriptionKey_DEMOKEY123.p8").path
        #expect(
            configuration.apps[ServiceFixtures.app]
                == AppCredentials(keyFile: demoKeyFile, keyId: "DEMOKEY123", issuerId: Self.issuer))
        #expect(configuration.apps[ServiceFixtures.otherApp]?.keyFile == ServiceFixtures.keyFile)
        #expect(configuration.apps.count == 2)
        #expect(
            configuration.connectAPI
                == ConnectAPICredentials(keyFile: demoKeyFile, keyId: "DEMOKEY123", issuerId: nil))
        #expect(configuration.apiKeys.map(\.name) == ["admin", "billing"])
        #expect(
            configuration.apiKeys[0] == APIKey(name: "admin", digest: admin.key.digest, scopes: nil, bundleIds: nil))
        #expect(configuration.apiKeys[1].digestHex == Self.otherDigest)
        #expect(configuration.apiKeys[1].scopes == [.promotionalOffer, .metrics])
        #expect(configuration.apiKeys[1].bundleIds == [ServiceFixtures.app])
        #expect(
            configuration.limits
                == ServiceLimits(
                    maxBodyBytes: 2048, requestTimeoutSeconds: 5, requestsPerSecond: 7, burst: 9, maxConnections: 300,
                    backlog: 64))

        let service = try OfferService(configuration: configuration)
        #expect(service.state.apps.bundleIds == [ServiceFixtures.app, ServiceFixtures.otherApp])
        #expect(service.state.apps.connectAPI != nil)
        #expect(service.state.rateLimiter.requestsPerSecond == 7 && service.state.rateLimiter.burst == 9)
        try await ServiceFixtures.application(service).test(.router) { client in
            let ready = try await client.call(.get, "/readyz")
            #expect(ready.status == 200)
            #expect(ready.json == .object([("status", .string("ready")), ("apps", .number("2"))]))
            let signed = try await client.call(
                .post, "/v1/signatures/promotional-offer",
                body: #"{"bundleId":"com.example.offerkit.other","productId":"p","offerIdentifier":"o"}"#,
                key: admin.secret)
            #expect(signed.status == 200, "\(signed.text)")
        }
    }

    @Test("limits default when the file has none")
    func defaults() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("service.json", #"{"apps": {\#(Self.app())}}"#)
        let configuration = try ServiceConfiguration.load(path: path, environment: [:])
        #expect(configuration.limits == ServiceLimits())
        #expect(configuration.limits.maxConnections == 10_000 && configuration.limits.backlog == 4096)
        #expect(configuration.apiKeys.isEmpty && configuration.connectAPI == nil)
    }

    /// Configurations with one mistake each, and the field the error must name.
    static let invalid: [(json: String, field: String)] = [
        ("{}", "apps"),
        (#"{"apps": []}"#, "apps"),
        (#"{"apps": {\#(app(issuerId: "not-a-uuid"))}}"#, "apps[\"com.example.app\"].issuerId"),
        (
            #"{"apps": {\#(app(issuerId: "98802e6e-bab8-4f06-8c88-a2582cda3c9"))}}"#,
            "apps[\"com.example.app\"].issuerId"
        ),
        (#"{"apps": {\#(app(keyId: ""))}}"#, "apps[\"com.example.app\"].keyId"),
        (
            #"{"apps": {"com.example.app": {"keyId": "DEMOKEY123", "issuerId": "\#(issuer)"}}}"#,
            "apps[\"com.example.app\"].keyFile"
        ),
        (
            #"{"apps": {"com.example.app": {"keyFile": "k.p8", "keyId": "DEMOKEY123", "issuerId": "\#(issuer)", "x": 1}}}"#,
            "apps[\"com.example.app\"].x"
        ),
        (#"{"apps": {\#(app("com..app"))}}"#, "apps.com..app"),
        (#"{"apps": {\#(app("com.example.app!"))}}"#, "apps.com.example.app!"),
        (#"{"apps": {\#(app(".app"))}}"#, "apps..app"),
        (
            #"{"apps": {\#(app())}, "apiKeys": [\#(apiKey(sha256: String(repeating: "zz", count: 32)))]}"#,
            "apiKeys[0].sha256"
        ),
        (
            #"{"apps": {\#(app())}, "apiKeys": [\#(apiKey(sha256: String(repeating: "ab", count: 31)))]}"#,
            "apiKeys[0].sha256"
        ),
        (#"{"apps": {\#(app())}, "apiKeys": [\#(apiKey(scopes: #"["promo"]"#))]}"#, "apiKeys[0].scopes[0]"),
        (#"{"apps": {\#(app())}, "apiKeys": [\#(apiKey(scopes: #"["metrics", "*"]"#))]}"#, "apiKeys[0].scopes[1]"),
        (#"{"apps": {\#(app())}, "apiKeys": [\#(apiKey(scopes: "[]"))]}"#, "apiKeys[0].scopes"),
        (
            #"{"apps": {\#(app())}, "apiKeys": [\#(apiKey(bundleIds: #"["com.example.app", "bad id"]"#))]}"#,
            "apiKeys[0].bundleIds[1]"
        ),
        (
            #"{"apps": {\#(app())}, "apiKeys": [\#(apiKey()), {"sha256": "\#(digest)", "scopes": ["*"], "bundleIds": ["*"]}]}"#,
            "apiKeys[1].name"
        ),
        (#"{"apps": {\#(app())}, "apiKeys": [\#(apiKey()), \#(apiKey(sha256: otherDigest))]}"#, "apiKeys"),
        (#"{"apps": {\#(app())}, "apiKeys": [\#(apiKey("a")), \#(apiKey("b"))]}"#, "apiKeys"),
        (#"{"apps": {\#(app())}, "limits": {"maxBodyBytes": 10}}"#, "limits.maxBodyBytes"),
        (#"{"apps": {\#(app())}, "limits": {"maxBodyBytes": 104857601}}"#, "limits.maxBodyBytes"),
        (#"{"apps": {\#(app())}, "limits": {"requestTimeoutSeconds": 0}}"#, "limits.requestTimeoutSeconds"),
        (#"{"apps": {\#(app())}, "limits": {"requestTimeoutSeconds": 601}}"#, "limits.requestTimeoutSeconds"),
        (#"{"apps": {\#(app())}, "limits": {"requestsPerSecond": 0}}"#, "limits.requestsPerSecond"),
        (#"{"apps": {\#(app())}, "limits": {"burst": 1.5}}"#, "limits.burst"),
        (#"{"apps": {\#(app())}, "limits": {"burst": "10"}}"#, "limits.burst"),
        (#"{"apps": {\#(app())}, "limits": {"timeout": 5}}"#, "limits.timeout"),
        (#"{"apps": {\#(app())}, "limits": {"maxConnections": 0}}"#, "limits.maxConnections"),
        (#"{"apps": {\#(app())}, "limits": {"maxConnections": 1000001}}"#, "limits.maxConnections"),
        (#"{"apps": {\#(app())}, "limits": {"backlog": 0}}"#, "limits.backlog"),
        (#"{"apps": {\#(app())}, "limits": {"backlog": 65536}}"#, "limits.backlog"),
        (
            #"{"apps": {\#(app())}, "connectApiKey": {"keyFile": "k.p8", "keyId": "K", "issuerId": "x"}}"#,
            "connectApiKey.issuerId"
        ),
        (#"{"apps": {\#(app())}, "app": {}}"#, "app"),
        ("[]", "(top level)"),
        ("42", "(top level)"),
        // The signing library's bundle-ID rule: at most 255 bytes.
        (#"{"apps": {\#(app(String(repeating: "a", count: 256)))}}"#, "apps." + String(repeating: "a", count: 256)),
        // Every missing member in one error.
        (#"{"apps": {"com.example.app": {"keyId": "DEMOKEY123"}}}"#, "apps[\"com.example.app\"]"),
    ]

    @Test("each mistake is an error naming its field", arguments: invalid)
    func invalidConfiguration(json: String, field: String) throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("service.json", json)
        let error = try #require(throws: ConfigurationError.self) {
            try ServiceConfiguration.load(path: path, environment: [:])
        }
        guard case .invalidField(let source, let named, let expected) = error else {
            Issue.record("expected invalidField, got \(error)")
            return
        }
        #expect(source == path)
        #expect(named == field)
        #expect(!expected.isEmpty)
        let message = try #require(error.errorDescription)
        #expect(message.hasPrefix("\(path): \(field): expected "), "\(message)")
    }

    @Test("an app entry lacking several members lists them all in one error")
    func everyMissingMember() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("service.json", #"{"apps": {"com.example.app": {"keyId": "DEMOKEY123"}}}"#)
        let error = try #require(throws: ConfigurationError.self) {
            try ServiceConfiguration.load(path: path, environment: [:])
        }
        let message = try #require(error.errorDescription)
        #expect(message.contains("missing: keyFile, issuerId"), "\(message)")
    }

    @Test(
        "a file that is not JSON is notJSON, with the parser's message",
        arguments: ["{apps:", "", "{\"apps\": {}} x", "\u{FEFF}{}"])
    func notJSON(text: String) throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("service.json", text)
        let error = try #require(throws: ConfigurationError.self) {
            try ServiceConfiguration.load(path: path, environment: [:])
        }
        guard case .notJSON(let named, let detail) = error else {
            Issue.record("expected notJSON, got \(error)")
            return
        }
        #expect(named == path)
        #expect(!detail.isEmpty && !detail.contains("ParseError"))
        #expect(error.errorDescription?.contains(path) == true)
    }

    @Test("a missing or unreadable file is unreadable, naming the path")
    func unreadable() throws {
        let folder = try TemporaryFolder()
        let cases = [
            (folder.url.appendingPathComponent("missing.json").path, "no such file"),
            (folder.url.path, "it is a directory, not a file"),
        ]
        for (path, reason) in cases {
            #expect(throws: ConfigurationError.unreadable(path: path, reason: reason)) {
                try ServiceConfiguration.load(path: path, environment: [:])
            }
            #expect(
                ConfigurationError.unreadable(path: path, reason: reason).errorDescription?.contains(path) == true)
        }
    }

    @Test("a configuration file over 1 MiB is refused before it is read")
    func boundedAndPipes() throws {
        let folder = try TemporaryFolder()
        let large = folder.url.appendingPathComponent("large.json").path
        _ = FileManager.default.createFile(atPath: large, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: large))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        #expect(
            throws: ConfigurationError.unreadable(
                path: large, reason: "it is larger than 1 MiB, the most accepted here")
        ) {
            try ServiceConfiguration.load(path: large, environment: [:])
        }
    }

    @Test("limits written as exact integers in any spelling are used (2.0e3 is 2000)")
    func limitsInAnySpelling() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("service.json").path
        try #"{"apps":{},"limits":{"burst":2.0e3,"maxBodyBytes":6.4e4,"requestsPerSecond":25e0}}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        let limits = try ServiceConfiguration.load(path: path, environment: [:]).limits
        #expect(limits.burst == 2000)
        #expect(limits.maxBodyBytes == 64_000)
        #expect(limits.requestsPerSecond == 25)
    }

    @Test("OFFERKIT_API_KEYS: its mistakes name the variable and the field")
    func environmentMistakes() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "service.json", #"{"apps": {\#(Self.app())}, "apiKeys": [\#(Self.apiKey("billing"))]}"#)
        let variable = ServiceConfiguration.apiKeysVariable
        func error(_ value: String) throws -> ConfigurationError {
            try #require(throws: ConfigurationError.self) {
                try ServiceConfiguration.load(path: path, environment: [variable: value])
            }
        }
        guard case .notJSON(let source, _) = try error("not json") else {
            Issue.record("expected notJSON")
            return
        }
        #expect(source == variable)
        #expect(
            try error("{}")
                == .invalidField(source: variable, field: "(top level)", expected: "an array (found an object)"))
        guard
            case .invalidField(variable, "[0].sha256", _) = try error(
                #"[{"name": "x", "scopes": ["*"], "bundleIds": ["*"]}]"#)
        else {
            Issue.record("expected the missing sha256 of [0]")
            return
        }
        guard
            case .invalidField(let both, "apiKeys", let expected) = try error(
                "[\(Self.apiKey("billing", sha256: Self.otherDigest))]")
        else {
            Issue.record("expected a duplicate name")
            return
        }
        #expect(both.contains(path) && both.contains(variable))
        #expect(expected.contains("billing"))
        // The variable's keys add to the file's.
        let merged = try ServiceConfiguration.load(
            path: path, environment: [variable: "[\(Self.apiKey("second", sha256: Self.otherDigest))]"])
        #expect(merged.apiKeys.map(\.name) == ["billing", "second"])
    }

    /// Configurations whose key cannot be loaded, and what the message must say.
    static func unloadable(_ folder: TemporaryFolder) throws -> [(ServiceConfiguration, bundleId: String, says: String)]
    {
        let missing = folder.url.appendingPathComponent("SubscriptionKey_MISSING.p8").path
        let pem = try String(contentsOfFile: ServiceFixtures.keyFile, encoding: .utf8)
        let garbled = try folder.write("garbled.p8", pem.replacingOccurrences(of: "MIGHAgEA", with: "MIGHAgEB"))
        let truncated = try folder.write("truncated.p8", String(pem.prefix(120)) + "\n-----END PRIVATE KEY-----\n")
        let bare = try folder.write("bare.p8", DemoKeyMaterial.pemLines.joined() + "!")
        func app(_ keyFile: String, keyId: String = ServiceFixtures.keyId, issuerId: String = ServiceFixtures.issuerId)
            -> ServiceConfiguration
        {
            ServiceConfiguration(
                apps: ["com.example.app": AppCredentials(keyFile: keyFile, keyId: keyId, issuerId: issuerId)],
                apiKeys: [ServiceFixtures.admin.key])
        }
        var connect = app(ServiceFixtures.keyFile)
        connect.connectAPI = ConnectAPICredentials(keyFile: missing, keyId: "DEMOKEY123", issuerId: nil)
        return [
            (app(missing), "com.example.app", missing),
            (app(ServiceFixtures.publicKeyFile), "com.example.app", "public key"),
            (app(ServiceFixtures.keyFile, keyId: "demokey123"), "com.example.app", "keyId"),
            (app(ServiceFixtures.keyFile, keyId: pem), "com.example.app", "keyId"),
            (app(ServiceFixtures.keyFile, issuerId: "ISSUER"), "com.example.app", "issuerId"),
            (app(garbled), "com.example.app", "key"),
            (app(truncated), "com.example.app", "key"),
            (app(bare), "com.example.app", "key"),
            (connect, "(connectApiKey)", missing),
        ]
    }

    @Test("a key that cannot be loaded is an error naming the app, without key material")
    func keyNotLoaded() throws {
        let folder = try TemporaryFolder()
        for (configuration, bundleId, says) in try Self.unloadable(folder) {
            let error = try #require(throws: ConfigurationError.self) { try OfferService(configuration: configuration) }
            guard case .keyNotLoaded(let named, let reason) = error else {
                Issue.record("expected keyNotLoaded, got \(error)")
                continue
            }
            #expect(named == bundleId)
            let message = try #require(error.errorDescription)
            #expect(message.contains(bundleId))
            #expect(message.contains(says), "\(message)")
            #expect(DemoKeyMaterial.leaks(in: message) == nil, "\(message)")
            #expect(DemoKeyMaterial.leaks(in: reason) == nil)
        }
    }

    @Test("/readyz answers 200, then 503 unavailable with Retry-After once shutdown begins")
    func readiness() async throws {
        let service = try ServiceFixtures.service()
        try await ServiceFixtures.application(service).test(.router) { client in
            let ready = try await client.call(.get, "/readyz")
            #expect(ready.status == 200)
            #expect(ready.string("status") == "ready")
            #expect(!service.state.isShuttingDown)
            service.state.beginShutdown()
            #expect(service.state.isShuttingDown)
            let draining = try await client.call(.get, "/readyz")
            #expect(draining.status == 503)
            #expect(draining.problemSlug == "unavailable")
            #expect(draining.headers[.retryAfter] != nil)
            // Liveness and requests still in flight go on while the service drains.
            let live = try await client.call(.get, "/healthz")
            #expect(live.status == 200)
            let signed = try await client.call(
                .post, "/v1/signatures/promotional-offer",
                body: #"{"bundleId":"com.example.offerkit.demo","productId":"p","offerIdentifier":"o"}"#,
                key: ServiceFixtures.admin.secret)
            #expect(signed.status == 200)
        }
    }

    @Test(
        "isLoopback: loopback addresses and localhost only",
        arguments: [
            ("127.0.0.1", true), ("127.1.2.3", true), ("127.255.255.255", true), ("localhost", true),
            ("LOCALHOST", true), ("::1", true), ("[::1]", true), ("0:0:0:0:0:0:0:1", true), ("::ffff:127.0.0.1", true),
            ("0.0.0.0", false), ("::", false), ("[::]", false), ("192.168.1.10", false), ("10.0.0.1", false),
            ("128.0.0.1", false), ("127.example.com", false), ("127.0.0.1.nip.io", false),
            ("localhost.example.com", false),
            ("example.com", false), ("", false), ("::2", false), ("[::1", false), ("127.0.0.256", false),
            ("::ffff:10.0.0.1", false), (" 127.0.0.1", false),
        ])
    func isLoopback(host: String, loopback: Bool) {
        #expect(OfferService.isLoopback(host) == loopback)
    }
}
