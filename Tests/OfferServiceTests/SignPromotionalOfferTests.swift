import Foundation
import Hummingbird
import HummingbirdTesting
import OfferService
import OfferSigning
import Testing

@Suite("POST /v1/signatures/promotional-offer")
struct SignPromotionalOfferTests {
    let path = ServiceFixtures.promotionalOfferPath
    let body = ServiceFixtures.promotionalOfferBody
    var route: OperationRoute { OperationRoute(path: path) }

    @Test("signs a V2 promotional offer that the library's verifier accepts")
    func signs() async throws {
        let service = try ServiceFixtures.service()
        let response = try await route.post(body, to: service)
        #expect(response.status == 200, "\(response.text)")
        #expect(response.headers[.cacheControl] == "no-store")
        let jws = try #require(response.string("jws"))
        let verified = try JWSVerifier(publicKeyPEM: ServiceFixtures.publicKeyPEM).verify(
            jws, as: .promotionalOffer)
        #expect(verified.claims.bid == ServiceFixtures.app)
        #expect(response.string("nonce") == verified.claims.nonce)
        #expect(response.string("keyId") == ServiceFixtures.keyId)
        #expect(service.state.metrics.exposition().contains(#"offerkit_signatures_total{type="promotional-offer"} 1"#))
    }

    @Test(
        "the JWS passes PyJWT and cryptography, with the claims of the request and the given nonce",
        .enabled(IndependentVerifier.pythonReason) { await IndependentVerifier.pythonEnabled })
    func verifiedIndependently() async throws {
        let service = try ServiceFixtures.service(clock: .fixed(Date(timeIntervalSince1970: 1_763_712_000)))
        let response = try await route.post(
            #"""
            {"bundleId":"com.example.offerkit.other","productId":"é.monthly \"quoted\"",
             "offerIdentifier":"ÜBER-50","transactionId":"2000000123456789",
             "nonce":"9F2D3C1E-6B1F-4A9E-8C8E-2A4F5D6B7C8D"}
            """#, to: service)
        #expect(response.status == 200, "\(response.text)")
        #expect(response.string("nonce") == "9f2d3c1e-6b1f-4a9e-8c8e-2a4f5d6b7c8d")
        #expect(response.json?["issuedAt"] == .number("1763712000"))
        let jws = try #require(response.string("jws"))
        let verified = try await #require(try await IndependentVerifier.verify([(jws, "promotional-offer")]).first)
        verified.expectDemoKeyHeader()
        let claims = verified.claims
        #expect(
            claims.keys == ["iss", "iat", "aud", "bid", "nonce", "productId", "offerIdentifier", "transactionId"])
        #expect(claims["iss"] == .string(ServiceFixtures.issuerId))
        #expect(claims["iat"] == .number("1763712000"))
        #expect(claims["bid"] == .string(ServiceFixtures.otherApp))
        #expect(claims["nonce"] == .string("9f2d3c1e-6b1f-4a9e-8c8e-2a4f5d6b7c8d"))
        #expect(claims["productId"] == .string("é.monthly \"quoted\""))
        #expect(claims["offerIdentifier"] == .string("ÜBER-50"))
        #expect(claims["transactionId"] == .string("2000000123456789"))
    }

    @Test("a missing field is a 422 invalid-field problem naming it")
    func missingField() async throws {
        try await route.expectInvalidField(
            #"{"bundleId":"com.example.offerkit.demo","productId":"p"}"#, field: "offerIdentifier")
    }

    @Test("an unknown bundle ID is a 404 unknown-app problem")
    func unknownApp() async throws {
        try await route.expectUnknownApp(#"{"bundleId":"com.example.unknown","productId":"p","offerIdentifier":"o"}"#)
    }

    @Test("a key limited to another bundle ID is refused with 403, no key with 401")
    func authorization() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let other = #"{"bundleId":"com.example.offerkit.other","productId":"p","offerIdentifier":"o"}"#
            let forbidden = try await client.send(.post, path, json: other, key: ServiceFixtures.promotionalOnly.secret)
            #expect(forbidden.status == 403)
            #expect(forbidden.problemSlug == "forbidden")
            #expect(forbidden.string("field") == "bundleId")
            let allowed = try await client.send(.post, path, json: body, key: ServiceFixtures.promotionalOnly.secret)
            #expect(allowed.status == 200, "\(allowed.text)")
            let anonymous = try await client.send(.post, path, json: body)
            #expect(anonymous.status == 401)
            #expect(anonymous.problemSlug == "unauthorized")
        }
    }

    @Test("the request component's example passes its own schema and is signed")
    func requestExample() async throws {
        let (_, response) = try await route.postRequestExample(
            of: "signPromotionalOffer", component: "PromotionalOfferRequest")
        #expect(response.status == 200, "\(response.text)")
    }

    @Test("a value of the wrong type is a 422 that says what was found")
    func wrongTypeSaysWhatWasFound() async throws {
        let response = try await route.expectInvalidField(
            #"{"bundleId":"com.example.offerkit.demo","productId":"p","offerIdentifier":"o","transactionId":2000000123456789}"#,
            field: "transactionId")
        #expect(response.string("detail") == "transactionId: expected a string, found the number 2000000123456789")
    }
}
