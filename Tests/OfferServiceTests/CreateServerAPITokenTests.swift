import Foundation
import Hummingbird
import HummingbirdTesting
import OfferService
import OfferSigning
import Testing

@Suite("POST /v1/tokens/server-api")
struct CreateServerAPITokenTests {
    /// A fixed moment with a fraction of a second, which `iat` must drop.
    static let now = Date(timeIntervalSince1970: 1_763_712_000.75)
    let path = "/v1/tokens/server-api"
    let body = #"{"bundleId":"com.example.offerkit.demo"}"#
    var route: OperationRoute { OperationRoute(path: path) }

    @Test("signs a 5-minute token by default, with exactly iss, iat, exp, aud and bid")
    func defaultLifetime() async throws {
        let service = try ServiceFixtures.service(clock: .fixed(Self.now))
        let response = try await route.post(body, to: service)
        #expect(response.status == 200, "\(response.text)")
        #expect(response.headers[.contentType] == "application/json")
        #expect(response.headers[.cacheControl] == "no-store")
        let token = try #require(response.string("token"))
        let verified = try JWSVerifier(publicKeyPEM: ServiceFixtures.publicKeyPEM).verify(
            token, as: .serverAPIToken)
        #expect(verified.header.kid == ServiceFixtures.keyId)

        let decoded = try DecodedToken(token)
        #expect(decoded.header == ["alg": "ES256", "kid": ServiceFixtures.keyId, "typ": "JWT"])
        #expect(decoded.claimNames == ["iss", "iat", "exp", "aud", "bid"])
        #expect(decoded.claims.iss == ServiceFixtures.issuerId)
        #expect(decoded.claims.iat == 1_763_712_000)
        #expect(decoded.claims.exp == 1_763_712_000 + 300)
        #expect(decoded.claims.aud == "appstoreconnect-v1")
        #expect(decoded.claims.bid == ServiceFixtures.app)
        #expect(response.json?["issuedAt"] == .integer(1_763_712_000))
        #expect(response.json?["expiresAt"] == .integer(1_763_712_300))
    }

    @Test("signs for the app the request names", arguments: [ServiceFixtures.app, ServiceFixtures.otherApp])
    func bundleId(_ bundleId: String) async throws {
        let response = try await route.post(#"{"bundleId":"\#(bundleId)"}"#)
        #expect(response.status == 200, "\(response.text)")
        #expect(try DecodedToken(#require(response.string("token"))).claims.bid == bundleId)
    }

    @Test("lifetime sets exp, from 1 second to 60 minutes", arguments: [1, 60, 3600])
    func lifetime(_ seconds: Int) async throws {
        let service = try ServiceFixtures.service(clock: .fixed(Self.now))
        let response = try await route.post(
            #"{"bundleId":"com.example.offerkit.demo","lifetime":\#(seconds)}"#, to: service)
        #expect(response.status == 200, "\(response.text)")
        let claims = try DecodedToken(#require(response.string("token"))).claims
        #expect(claims.exp == claims.iat + Int64(seconds))
        #expect(response.json?["expiresAt"] == .integer(1_763_712_000 + seconds))
    }

    @Test(
        "a lifetime that is not an integer from 1 to 3600 is a 422 naming lifetime",
        arguments: ["0", "3601", "-300", "86400", "\"300\"", "300.5", "null", "true"])
    func lifetimeOutOfRange(_ lifetime: String) async throws {
        try await route.expectInvalidField(
            #"{"bundleId":"com.example.offerkit.demo","lifetime":\#(lifetime)}"#, field: "lifetime")
    }

    @Test(
        "the problem says what was found: the number and the bound, or the type",
        arguments: [
            ("3601", "lifetime: 3601 is above 3600"), ("0", "lifetime: 0 is below 1"),
            (#""300""#, "lifetime: expected an integer from 1 to 3600, found a string of 3 characters"),
            ("true", "lifetime: expected an integer from 1 to 3600, found the boolean true"),
        ])
    func lifetimeMessages(_ lifetime: String, _ detail: String) async throws {
        let response = try await route.expectInvalidField(
            #"{"bundleId":"com.example.offerkit.demo","lifetime":\#(lifetime)}"#, field: "lifetime")
        #expect(response.string("detail") == detail)
    }

    @Test(
        "a missing, malformed or unknown member is a 422 naming it",
        arguments: [
            ("{}", "bundleId"),
            (#"{"bundleId":"com..demo"}"#, "bundleId"),
            (#"{"bundleId":""}"#, "bundleId"),
            (#"{"bundleId":42}"#, "bundleId"),
            (#"{"bundleId":"com.example.offerkit.demo","bid":"com.example.offerkit.demo"}"#, "bid"),
            (#"["com.example.offerkit.demo"]"#, "(body)"),
        ])
    func invalidField(_ json: String, _ field: String) async throws {
        try await route.expectInvalidField(json, field: field)
    }

    @Test("a bundle ID the service does not have is a 404 unknown-app naming bundleId")
    func unknownApp() async throws {
        try await route.expectUnknownApp(#"{"bundleId":"com.example.elsewhere"}"#)
    }

    @Test("no API key, or an unknown one, is a 401 with WWW-Authenticate", arguments: [nil, "offerkit_not-a-key"])
    func unauthorized(_ key: String?) async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let response = try await client.send(.post, path, json: body, key: key)
            #expect(response.status == 401, "\(response.text)")
            #expect(response.problemSlug == "unauthorized")
            #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            #expect(response.string("token") == nil)
        }
    }

    @Test("a key without the server-api-token scope is a 403")
    func missingScope() async throws {
        try await route.expectScopeRequired("server-api-token", json: body)
    }

    @Test("a key limited to other bundle IDs is a 403 naming bundleId")
    func otherBundleId() async throws {
        let demoOnly = APIKey.generate(
            name: "server-tokens-demo", scopes: [.serverAPIToken], bundleIds: [ServiceFixtures.app])
        let app = ServiceFixtures.application(try ServiceFixtures.service { $0.apiKeys.append(demoOnly.key) })
        try await app.test(.router) { client in
            let allowed = try await client.send(.post, path, json: body, key: demoOnly.secret)
            #expect(allowed.status == 200, "\(allowed.text)")
            let refused = try await client.send(
                .post, path, json: #"{"bundleId":"\#(ServiceFixtures.otherApp)"}"#, key: demoOnly.secret)
            #expect(refused.status == 403, "\(refused.text)")
            #expect(refused.problemSlug == "forbidden")
            #expect(refused.string("field") == "bundleId")
        }
    }

    @Test("each token is counted in the metrics as server-api-token")
    func metrics() async throws {
        let service = try ServiceFixtures.service()
        let app = ServiceFixtures.application(service)
        try await app.test(.router) { client in
            for _ in 0..<2 {
                let response = try await client.send(.post, path, json: body, key: ServiceFixtures.admin.secret)
                #expect(response.status == 200, "\(response.text)")
            }
        }
        let lines = service.state.metrics.exposition().split(separator: "\n")
        #expect(lines.contains(#"offerkit_signatures_total{type="server-api-token"} 2"#))
    }

    @Test(
        "PyJWT and cryptography verify the token and read the same claims",
        .enabled(IndependentVerifier.pythonReason) { await IndependentVerifier.pythonEnabled })
    func independentlyVerified() async throws {
        let response = try await route.post(#"{"bundleId":"com.example.offerkit.demo","lifetime":600}"#)
        #expect(response.status == 200, "\(response.text)")
        let token = try #require(response.string("token"))
        let verified = try await IndependentVerifier.verify([(token, "appstoreconnect-v1")])
        let claims = try #require(verified.first?.claims)
        #expect(claims["iss"] == .string(ServiceFixtures.issuerId))
        #expect(claims["bid"] == .string(ServiceFixtures.app))
        #expect(claims["aud"] == .string("appstoreconnect-v1"))
        let iat = try #require(claims["iat"]?.int64)
        #expect(claims["exp"]?.int64 == iat + 600)
        #expect(verified.first?.header["alg"] == .string("ES256"))
    }
}
