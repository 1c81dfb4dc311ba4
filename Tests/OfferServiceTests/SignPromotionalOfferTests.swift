import Foundation
import Hummingbird
import HummingbirdTesting
import OfferService
import OfferSigning
import Testing

@Suite("POST /v1/signatures/promotional-offer")
struct SignPromotionalOfferTests {
    let body =
        #"{"bundleId":"com.example.offerkit.demo","productId":"com.example.monthly","offerIdentifier":"WINBACK50"}"#

    @Test("signs a V2 promotional offer that the library's verifier accepts")
    func signs() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let response = try await client.send(
                .post, "/v1/signatures/promotional-offer", json: body, key: ServiceFixtures.admin.secret)
            #expect(response.status == 200, "\(response.text)")
            #expect(response.headers[.cacheControl] == "no-store")
            let jws = try #require(response.string("jws"))
            let verified = try JWSVerifier(publicKeyPEM: ServiceFixtures.publicKeyPEM).verify(
                jws, as: .promotionalOffer)
            #expect(verified.claims.bid == ServiceFixtures.app)
            #expect(response.string("nonce") == verified.claims.nonce)
            #expect(response.string("keyId") == ServiceFixtures.keyID)
        }
    }

    @Test("a missing field is a 422 invalid-field problem naming it")
    func missingField() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let response = try await client.send(
                .post, "/v1/signatures/promotional-offer",
                json: #"{"bundleId":"com.example.offerkit.demo","productId":"p"}"#,
                key: ServiceFixtures.admin.secret)
            #expect(response.status == 422)
            #expect(response.headers[.contentType] == "application/problem+json")
            #expect(response.problemSlug == "invalid-field")
            #expect(response.string("field") == "offerIdentifier")
        }
    }
}
