import Foundation
import Hummingbird
import HummingbirdTesting
import OfferService
import OfferSigning
import Testing

@Suite("POST /v1/tokens/connect-api")
struct CreateConnectAPITokenTests {
    /// A fixed moment with a fraction of a second, which `iat` must drop.
    static let now = Date(timeIntervalSince1970: 1_763_712_000.25)
    let path = "/v1/tokens/connect-api"
    var route: OperationRoute { OperationRoute(path: path) }

    @Test("signs a token with the lifetime and scope asked for: iss, iat, exp, aud, scope and no bid")
    func lifetimeAndScope() async throws {
        let service = try ServiceFixtures.service(clock: .fixed(Self.now))
        let response = try await route.post(
            #"{"lifetime":600,"scope":["GET /v1/apps","GET /v1/apps?filter[platform]=IOS"]}"#, to: service)
        #expect(response.status == 200, "\(response.text)")
        #expect(response.headers[.cacheControl] == "no-store")
        let token = try #require(response.string("token"))
        let verified = try JWSVerifier(publicKeyPEM: ServiceFixtures.publicKeyPEM).verify(
            token, as: .connectAPIToken)
        #expect(verified.claims.scope == ["GET /v1/apps", "GET /v1/apps?filter[platform]=IOS"])

        let decoded = try DecodedToken(token)
        #expect(decoded.header == ["alg": "ES256", "kid": ServiceFixtures.keyId, "typ": "JWT"])
        #expect(decoded.claimNames == ["iss", "iat", "exp", "aud", "scope"])
        #expect(decoded.claims.iss == ServiceFixtures.issuerId)
        #expect(decoded.claims.iat == 1_763_712_000)
        #expect(decoded.claims.exp == 1_763_712_000 + 600)
        #expect(decoded.claims.aud == "appstoreconnect-v1")
        #expect(decoded.claims.scope == ["GET /v1/apps", "GET /v1/apps?filter[platform]=IOS"])
        #expect(decoded.claims.bid == nil)
        #expect(response.json?["issuedAt"] == .integer(1_763_712_000))
        #expect(response.json?["expiresAt"] == .integer(1_763_712_600))
    }

    @Test("an empty body takes the defaults: 15 minutes, no scope claim")
    func defaults() async throws {
        let service = try ServiceFixtures.service(clock: .fixed(Self.now))
        let response = try await route.post("{}", to: service)
        #expect(response.status == 200, "\(response.text)")
        let decoded = try DecodedToken(#require(response.string("token")))
        #expect(decoded.claimNames == ["iss", "iat", "exp", "aud"])
        #expect(decoded.claims.exp == decoded.claims.iat + 900)
        #expect(decoded.claims.scope == nil)
    }

    @Test("lifetime sets exp, from 1 second to 20 minutes", arguments: [1, 1200])
    func lifetime(_ seconds: Int) async throws {
        let service = try ServiceFixtures.service(clock: .fixed(Self.now))
        let response = try await route.post(#"{"lifetime":\#(seconds)}"#, to: service)
        #expect(response.status == 200, "\(response.text)")
        let claims = try DecodedToken(#require(response.string("token"))).claims
        #expect(claims.exp == claims.iat + Int64(seconds))
    }

    @Test("an individual key signs with sub = user and no iss")
    func individualKey() async throws {
        let service = try ServiceFixtures.service {
            $0.connectAPI = ConnectAPICredentials(
                keyFile: ServiceFixtures.keyFile, keyId: ServiceFixtures.keyId, issuerId: nil)
        }
        let response = try await route.post("{}", to: service)
        #expect(response.status == 200, "\(response.text)")
        let decoded = try DecodedToken(#require(response.string("token")))
        #expect(decoded.claimNames == ["sub", "iat", "exp", "aud"])
        #expect(decoded.claims.sub == "user")
        #expect(decoded.claims.iss == nil)
    }

    @Test(
        "a lifetime that is not an integer from 1 to 1200 is a 422 naming lifetime",
        arguments: ["0", "1201", "3600", "-1", "\"900\"", "900.5", "1200.0001", "null"])
    func lifetimeOutOfRange(_ lifetime: String) async throws {
        try await route.expectInvalidField(#"{"lifetime":\#(lifetime)}"#, field: "lifetime")
    }

    @Test(
        "a malformed scope or an unknown member is a 422 naming it",
        arguments: [
            (#"{"scope":"GET /v1/apps"}"#, "scope"),
            (#"{"scope":[""]}"#, "scope[0]"),
            (#"{"scope":["GET /v1/apps",7]}"#, "scope[1]"),
            (#"{"scope":["GET /v1/apps\n"]}"#, "scope[0]"),
            (#"{"scope":["GET /v1/apps\u2063"]}"#, "scope[0]"),
            (#"{"bundleId":"com.example.offerkit.demo"}"#, "bundleId"),
            (#"[]"#, "(body)"),
        ])
    func invalidField(_ json: String, _ field: String) async throws {
        try await route.expectInvalidField(json, field: field)
    }

    @Test("without an App Store Connect API key in the configuration it is a 404 not-configured")
    func notConfigured() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service { $0.connectAPI = nil })
        try await app.test(.router) { client in
            let response = try await client.send(
                .post, path, json: #"{"lifetime":600}"#, key: ServiceFixtures.admin.secret)
            #expect(response.status == 404, "\(response.text)")
            #expect(response.headers[.contentType] == "application/problem+json")
            #expect(response.problemSlug == "not-configured")
            #expect(response.string("detail")?.contains("connectApiKey") == true)
            #expect(response.string("token") == nil)

            let anonymous = try await client.send(.post, path, json: "{}")
            #expect(anonymous.status == 401, "authentication comes first: \(anonymous.text)")
        }
    }

    @Test("no API key, or an unknown one, is a 401", arguments: [nil, "offerkit_not-a-key"])
    func unauthorized(_ key: String?) async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let response = try await client.send(.post, path, json: "{}", key: key)
            #expect(response.status == 401, "\(response.text)")
            #expect(response.problemSlug == "unauthorized")
            #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
        }
    }

    @Test("a key without the connect-api-token scope is a 403, even with every other scope")
    func missingScope() async throws {
        let others = APIKey.generate(
            name: "no-connect", scopes: Set(OperationScope.allCases).subtracting([.connectAPIToken]))
        let app = ServiceFixtures.application(try ServiceFixtures.service { $0.apiKeys.append(others.key) })
        try await app.test(.router) { client in
            for key in [ServiceFixtures.promotionalOnly.secret, others.secret] {
                let response = try await client.send(.post, path, json: "{}", key: key)
                #expect(response.status == 403, "\(response.text)")
                #expect(response.problemSlug == "forbidden")
                #expect(response.string("detail")?.contains("connect-api-token") == true)
            }
        }
    }

    @Test("each token is counted in the metrics as connect-api-token")
    func metrics() async throws {
        let service = try ServiceFixtures.service()
        let response = try await route.post("{}", to: service)
        #expect(response.status == 200, "\(response.text)")
        let lines = service.state.metrics.exposition().split(separator: "\n")
        #expect(lines.contains(#"offerkit_signatures_total{type="connect-api-token"} 1"#))
    }

    @Test(
        "PyJWT and cryptography verify the token and read the same claims",
        .enabled(IndependentVerifier.pythonReason) { await IndependentVerifier.pythonEnabled })
    func independentlyVerified() async throws {
        let response = try await route.post(#"{"lifetime":300,"scope":["GET /v1/apps"]}"#)
        #expect(response.status == 200, "\(response.text)")
        let token = try #require(response.string("token"))
        let verified = try await IndependentVerifier.verify([(token, "appstoreconnect-v1")])
        let claims = try #require(verified.first?.claims)
        #expect(claims["iss"] == .string(ServiceFixtures.issuerId))
        #expect(claims["scope"] == .array([.string("GET /v1/apps")]))
        #expect(claims["bid"] == nil)
        let iat = try #require(claims["iat"]?.int64)
        #expect(claims["exp"]?.int64 == iat + 300)
    }
}
