import Foundation
import Hummingbird
import HummingbirdTesting
import OfferService
import OfferSigning
import Testing

@Suite("POST /v1/signatures/introductory-offer-eligibility")
struct SignIntroductoryOfferEligibilityTests {
    let path = "/v1/signatures/introductory-offer-eligibility"
    let body = #"""
        {"bundleId":"com.example.offerkit.demo","productId":"com.example.monthly","allowIntroductoryOffer":false,
         "transactionId":"2000000123456789"}
        """#
    var route: OperationRoute { OperationRoute(path: path) }

    @Test(
        "signs an eligibility JWS that PyJWT and cryptography verify, with the claims of the request",
        .enabled(IndependentVerifier.pythonReason) { await IndependentVerifier.pythonEnabled })
    func signs() async throws {
        let service = try ServiceFixtures.service(clock: .fixed(Date(timeIntervalSince1970: 1_763_712_000)))
        let response = try await route.post(body, to: service)
        #expect(response.status == 200, "\(response.text)")
        #expect(response.headers[.cacheControl] == "no-store")
        #expect(response.string("keyId") == ServiceFixtures.keyId)
        #expect(response.json?["issuedAt"] == .number("1763712000"))
        let jws = try #require(response.string("jws"))
        let verified = try await #require(
            try await IndependentVerifier.verify([(jws, "introductory-offer-eligibility")]).first)
        verified.expectDemoKeyHeader()
        let claims = verified.claims
        #expect(
            claims.keys == [
                "iss", "iat", "aud", "bid", "nonce", "productId", "allowIntroductoryOffer", "transactionId",
            ])
        #expect(claims["iss"] == .string(ServiceFixtures.issuerId))
        #expect(claims["iat"] == .number("1763712000"))
        #expect(claims["bid"] == .string(ServiceFixtures.app))
        let nonce = try #require(response.string("nonce"))
        #expect(claims["nonce"] == .string(nonce))
        #expect(claims["productId"] == .string("com.example.monthly"))
        #expect(claims["allowIntroductoryOffer"] == .bool(false))
        #expect(claims["transactionId"] == .string("2000000123456789"))
        #expect(
            service.state.metrics.exposition().contains(
                #"offerkit_signatures_total{type="introductory-offer-eligibility"} 1"#))
    }

    @Test(
        "uses the given nonce, lower-cased, and signs allowIntroductoryOffer true",
        .enabled(IndependentVerifier.pythonReason) { await IndependentVerifier.pythonEnabled })
    func givenNonce() async throws {
        let response = try await route.post(
            #"""
            {"bundleId":"com.example.offerkit.other","productId":"com.example.yearly",
             "allowIntroductoryOffer":true,"transactionId":"2000000987654321",
             "nonce":"9F2D3C1E-6B1F-4A9E-8C8E-2A4F5D6B7C8D"}
            """#)
        #expect(response.status == 200, "\(response.text)")
        #expect(response.string("nonce") == "9f2d3c1e-6b1f-4a9e-8c8e-2a4f5d6b7c8d")
        let jws = try #require(response.string("jws"))
        let verified = try await #require(
            try await IndependentVerifier.verify([(jws, "introductory-offer-eligibility")]).first)
        #expect(verified.claims["nonce"] == .string("9f2d3c1e-6b1f-4a9e-8c8e-2a4f5d6b7c8d"))
        #expect(verified.claims["bid"] == .string(ServiceFixtures.otherApp))
        #expect(verified.claims["allowIntroductoryOffer"] == .bool(true))
    }

    @Test(
        "an invalid body is a 422 invalid-field problem naming the field",
        arguments: [
            (
                #"{"bundleId":"com.example.offerkit.demo","productId":"p","allowIntroductoryOffer":true}"#,
                "transactionId"
            ),
            (
                #"{"bundleId":"com.example.offerkit.demo","productId":"p","allowIntroductoryOffer":"yes","transactionId":"1"}"#,
                "allowIntroductoryOffer"
            ),
            (
                #"{"bundleId":"com.example.offerkit.demo","productId":"p","allowIntroductoryOffer":true,"transactionId":"1","eligible":true}"#,
                "eligible"
            ),
            (
                #"{"bundleId":"com.example.offerkit.demo","productId":"p","allowIntroductoryOffer":true,"transactionId":""}"#,
                "transactionId"
            ),
            // A UUID that is not version 4: the schema takes any UUID, the signing library refuses it.
            (
                #"{"bundleId":"com.example.offerkit.demo","productId":"p","allowIntroductoryOffer":true,"transactionId":"1","nonce":"9f2d3c1e-6b1f-1a9e-8c8e-2a4f5d6b7c8d"}"#,
                "nonce"
            ),
        ])
    func invalidField(json: String, field: String) async throws {
        try await route.expectInvalidField(json, field: field)
    }

    @Test("an unknown bundle ID is a 404 unknown-app problem")
    func unknownApp() async throws {
        try await route.expectUnknownApp(
            #"{"bundleId":"com.example.unknown","productId":"p","allowIntroductoryOffer":true,"transactionId":"1"}"#)
    }

    @Test("a key without the introductory-offer-eligibility scope is refused with 403, no key with 401")
    func authorization() async throws {
        try await route.expectScopeRequired("introductory-offer-eligibility", json: body)
    }

    @Test("the request component's example passes its own schema and is signed")
    func requestExample() async throws {
        let operation = try #require(OfferService.operations.first { $0.id == "signIntroductoryOfferEligibility" })
        #expect(operation.responseSchema.componentName == "SignedJWS")
        let (_, response) = try await route.postRequestExample(
            of: "signIntroductoryOfferEligibility", component: "IntroductoryOfferEligibilityRequest")
        #expect(response.status == 200, "\(response.text)")
    }
}
