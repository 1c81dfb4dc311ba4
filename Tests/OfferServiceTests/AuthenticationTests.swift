import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OfferSigning
import Testing

@testable import OfferService

@Suite("Authentication: bearer API keys, scopes, bundle IDs")
struct AuthenticationTests {
    let path = ServiceFixtures.promotionalOfferPath
    let body = ServiceFixtures.promotionalOfferBody

    func body(bundleId: String) -> String {
        body.replacingOccurrences(of: ServiceFixtures.app, with: bundleId)
    }

    @Test("no Authorization header is a 401 unauthorized problem with a Bearer challenge")
    func noHeader() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let response = try await client.call(.post, path, body: body)
            #expect(response.status == 401)
            #expect(response.problemSlug == "unauthorized")
            #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="offerkit""#)
            #expect(response.string("detail")?.contains("Authorization: Bearer") == true)
        }
    }

    /// Authorization values that hold no known key.
    static let wrongAuthorizations: [String] = {
        let secret = ServiceFixtures.admin.secret
        func changing(_ index: String.Index) -> String {
            var characters = Array(secret)
            let offset = secret.distance(from: secret.startIndex, to: index)
            characters[offset] = characters[offset] == "A" ? "B" : "A"
            return String(characters)
        }
        let afterPrefix = secret.index(secret.startIndex, offsetBy: APIKey.secretPrefix.count)
        return [
            "Basic \(Data("admin:\(secret)".utf8).base64EncodedString())",
            "Token \(secret)",
            secret,
            "Bearer",
            "Bearer ",
            "Bearer    ",
            "Bearer \(APIKey.generate(name: "unknown").secret)",
            "Bearer \(changing(afterPrefix))",
            "Bearer \(changing(secret.index(before: secret.endIndex)))",
            "Bearer \(secret)x",
            "Bearer \(secret.dropLast())",
            "Bearer \(secret.uppercased())",
            "Bearer \(APIKey.secretPrefix)",
            "Bearer \(secret.dropFirst(APIKey.secretPrefix.count))",
            "Bearer \(ServiceFixtures.admin.key.digestHex)",
        ]
    }()

    @Test(
        "a wrong scheme, an empty token, an unknown key or a key one character off is a 401",
        arguments: wrongAuthorizations)
    func wrongAuthorization(authorization: String) async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let response = try await client.call(.post, path, body: body, headers: [.authorization: authorization])
            #expect(response.status == 401)
            #expect(response.problemSlug == "unauthorized")
            #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="offerkit", error="invalid_token""#)
            #expect(!response.text.contains(ServiceFixtures.admin.secret))
        }
    }

    @Test("the scheme is case-insensitive", arguments: ["Bearer", "bearer", "BEARER", "bEaReR"])
    func schemeCase(scheme: String) async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let response = try await client.call(
                .post, path, body: body, headers: [.authorization: "\(scheme) \(ServiceFixtures.admin.secret)"])
            #expect(response.status == 200, "\(response.text)")
        }
    }

    @Test("a key without the operation's scope is a 403 forbidden problem naming the scope")
    func scopeMissing() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let response = try await client.call(.get, "/metrics", key: ServiceFixtures.promotionalOnly.secret)
            #expect(response.status == 403)
            #expect(response.problemSlug == "forbidden")
            #expect(response.string("detail")?.contains("'metrics'") == true)
            #expect(response.headers[.wwwAuthenticate] == nil)
        }
    }

    @Test("a bundle ID the key may not use is a 403, whether or not the service has it (403 before 404)")
    func bundleIdNotAllowed() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let key = ServiceFixtures.promotionalOnly.secret
            let configured = try await client.call(
                .post, path, body: body(bundleId: ServiceFixtures.otherApp), key: key)
            let unconfigured = try await client.call(
                .post, path, body: body(bundleId: "com.example.not.configured"), key: key)
            for response in [configured, unconfigured] {
                #expect(response.status == 403)
                #expect(response.problemSlug == "forbidden")
                #expect(response.string("field") == "bundleId")
            }
            // Nothing but the bundle ID itself differs between the two answers.
            #expect(
                configured.string("detail")?.replacingOccurrences(of: ServiceFixtures.otherApp, with: "X")
                    == unconfigured.string("detail")?.replacingOccurrences(of: "com.example.not.configured", with: "X"))
            // A key that may use every bundle ID learns that the app is not configured.
            let admin = try await client.call(
                .post, path, body: body(bundleId: "com.example.not.configured"), key: ServiceFixtures.admin.secret)
            #expect(admin.status == 404)
            #expect(admin.problemSlug == "unknown-app")
        }
    }

    @Test("a key with the scope and the bundle ID is allowed")
    func allowed() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let response = try await client.call(.post, path, body: body, key: ServiceFixtures.promotionalOnly.secret)
            #expect(response.status == 200, "\(response.text)")
            #expect(response.string("jws") != nil)
            let other = try await client.call(
                .post, path, body: body(bundleId: ServiceFixtures.otherApp), key: ServiceFixtures.admin.secret)
            #expect(other.status == 200, "\(other.text)")
        }
    }

    @Test("keys from OFFERKIT_API_KEYS authenticate, with their scopes and bundle IDs")
    func keysFromEnvironment() async throws {
        let folder = try TemporaryFolder()
        let configPath = try folder.write(
            "service.json",
            """
            {"apps": {"\(ServiceFixtures.app)": {"keyFile": "\(ServiceFixtures.keyFile)", "keyId": "\(ServiceFixtures.keyId)",
              "issuerId": "\(ServiceFixtures.issuerId)"}}}
            """)
        let billing = APIKey.generate(name: "billing")
        let environment = [
            ServiceConfiguration.apiKeysVariable: """
            [{"name": "billing", "sha256": "\(billing.key.digestHex)", "scopes": ["promotional-offer"],
              "bundleIds": ["\(ServiceFixtures.app)"]}]
            """
        ]
        let configuration = try ServiceConfiguration.load(path: configPath, environment: environment)
        #expect(configuration.apiKeys.map(\.name) == ["billing"])
        #expect(configuration.apiKeys.first?.digest == billing.key.digest)
        let app = ServiceFixtures.application(try OfferService(configuration: configuration))
        try await app.test(.router) { client in
            let status1 = try await client.call(.post, path, body: body, key: billing.secret).status
            #expect(status1 == 200)
            let status2 = try await client.call(.post, path, body: body, key: ServiceFixtures.admin.secret).status
            #expect(status2 == 401)
            let status3 = try await client.call(.get, "/metrics", key: billing.secret).status
            #expect(status3 == 403)
        }
        // Without the variable the file has no key, and the service refuses to start with authentication.
        let bare = try ServiceConfiguration.load(path: configPath, environment: [:])
        #expect(throws: ConfigurationError.noAPIKeys) { try OfferService(configuration: bare) }
    }

    @Test("Authentication.disabled needs no header, for signing and for metrics")
    func disabled() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service(authentication: .disabled))
        try await app.test(.router) { client in
            let signed = try await client.call(.post, path, body: body)
            #expect(signed.status == 200, "\(signed.text)")
            let status4 = try await client.call(.get, "/metrics").status
            #expect(status4 == 200)
            // Any bundle ID the service has.
            let status5 = try await client.call(.post, path, body: body(bundleId: ServiceFixtures.otherApp)).status
            #expect(status5 == 200)
        }
    }

    @Test("Authentication.disabled runs without API keys; required refuses to")
    func disabledWithoutKeys() throws {
        var configuration = ServiceFixtures.configuration
        configuration.apiKeys = []
        _ = try OfferService(configuration: configuration, authentication: .disabled)
        #expect(throws: ConfigurationError.noAPIKeys) { try OfferService(configuration: configuration) }
    }

    @Test("/healthz and /readyz need no key, and ignore a wrong one", arguments: ["/healthz", "/readyz"])
    func publicEndpoints(path: String) async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let status6 = try await client.call(.get, path).status
            #expect(status6 == 200)
            let status7 = try await client.call(.get, path, headers: [.authorization: "Bearer nope"]).status
            #expect(status7 == 200)
        }
    }

    @Test("constant-time comparison: equal only for equal bytes of equal length")
    func constantTimeEqual() {
        let digest = APIKey.digest(of: "offerkit_secret")
        #expect(APIKeyStore.constantTimeEqual(digest, digest))
        #expect(APIKeyStore.constantTimeEqual([], []))
        for index in [0, 15, 31] {
            var changed = digest
            changed[index] ^= 0x01
            #expect(!APIKeyStore.constantTimeEqual(digest, changed))
            #expect(!APIKeyStore.constantTimeEqual(changed, digest))
        }
        #expect(!APIKeyStore.constantTimeEqual(digest, Array(digest.dropLast())))
        #expect(!APIKeyStore.constantTimeEqual(digest, digest + [0]))
        #expect(!APIKeyStore.constantTimeEqual(digest, []))
    }

    @Test(
        "the bearer token is the credential after the scheme",
        arguments: [
            ("Bearer abc", "abc"), ("bearer abc", "abc"), ("Bearer   abc  ", "abc"), ("Bearer", nil), ("Bearer ", nil),
            ("Basic abc", nil), ("abc", nil), ("", nil), ("Bearerabc", nil), ("BEARER abc", "abc"),
            ("Bearer\tabc", nil), ("Bearer \tabc\t", "abc"), (" Bearer abc", "abc"), ("Bearers abc", nil),
            ("Bearer a b", "a b"),
        ] as [(String, String?)])
    func bearerToken(authorization: String, token: String?) {
        #expect(APIKeyStore.bearerToken(authorization) == token)
    }

    @Test("the store finds the key whose secret is presented, among several")
    func storeFindsKey() {
        let keys = (0..<5).map { APIKey.generate(name: "key-\($0)") }
        let store = APIKeyStore(keys: keys.map(\.key))
        for (secret, key) in keys {
            #expect(store.authenticate(authorization: "Bearer \(secret)") == key)
        }
        #expect(store.authenticate(authorization: nil) == nil)
        #expect(store.authenticate(authorization: "Bearer \(APIKey.generate(name: "x").secret)") == nil)
    }

    @Test("generated secrets: offerkit_ and 43 base64url characters, digest is SHA-256")
    func generatedSecrets() {
        let (secret, key) = APIKey.generate(name: "n", scopes: [.metrics], bundleIds: ["com.example.app"])
        #expect(secret.hasPrefix(APIKey.secretPrefix))
        let body = secret.dropFirst(APIKey.secretPrefix.count)
        #expect(body.count == 43)
        #expect(body.utf8.allSatisfy { $0.isBase64URL })
        #expect(key.name == "n" && key.scopes == [.metrics] && key.bundleIds == ["com.example.app"])
        #expect(key.allows(.metrics) && !key.allows(.promotionalOffer))
        #expect(key.allows(bundleId: "com.example.app") && !key.allows(bundleId: "com.example.other"))
        #expect(APIKey.generate(name: "n").secret != secret)
        // FIPS 180-2 test vector: SHA-256("abc").
        #expect(
            APIKey(name: "abc", digest: APIKey.digest(of: "abc"), scopes: nil, bundleIds: nil).digestHex
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}

extension UInt8 {
    fileprivate var isBase64URL: Bool {
        (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) || (0x30...0x39).contains(self) || self == 0x2D
            || self == 0x5F
    }
}
