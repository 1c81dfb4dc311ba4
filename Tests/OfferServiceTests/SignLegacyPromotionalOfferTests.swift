import Foundation
import Hummingbird
import HummingbirdTesting
import OfferJSON
import OfferService
import OfferSigning
import Testing

@Suite("POST /v1/signatures/legacy-promotional-offer")
struct SignLegacyPromotionalOfferTests {
    let path = "/v1/signatures/legacy-promotional-offer"
    let body = ServiceFixtures.promotionalOfferBody
    var route: OperationRoute { OperationRoute(path: path) }

    @Test(
        "signs the legacy message; openssl verifies it over the seven fields of the response",
        .enabled(IndependentVerifier.opensslReason) { await IndependentVerifier.opensslEnabled })
    func signs() async throws {
        let service = try ServiceFixtures.service(clock: .fixed(Date(timeIntervalSince1970: 1_763_712_000.5)))
        let response = try await route.post(
            #"""
            {"bundleId":"com.example.offerkit.demo","productId":"com.example.monthly",
             "offerIdentifier":"WINBACK50","appAccountToken":"E3B1C9A2-5F4D-4C8E-9A7B-1D2E3F4A5B6C"}
            """#, to: service)
        #expect(response.status == 200, "\(response.text)")
        #expect(response.headers[.cacheControl] == "no-store")
        #expect(
            response.json?.keys == [
                "keyId", "nonce", "timestamp", "signature", "productId", "offerIdentifier", "appAccountToken",
            ])
        #expect(response.string("keyId") == ServiceFixtures.keyId)
        #expect(response.string("productId") == "com.example.monthly")
        #expect(response.string("offerIdentifier") == "WINBACK50")
        #expect(response.string("appAccountToken") == "e3b1c9a2-5f4d-4c8e-9a7b-1d2e3f4a5b6c")
        #expect(response.json?["timestamp"] == .number("1763712000500"))
        let nonce = try #require(response.string("nonce"))
        #expect(UUID(uuidString: nonce) != nil && nonce == nonce.lowercased())
        try await expectVerified(response, bundleId: ServiceFixtures.app)
        #expect(
            service.state.metrics.exposition().contains(
                #"offerkit_signatures_total{type="legacy-promotional-offer"} 1"#))
    }

    @Test(
        "uses the given nonce (lower-cased) and signs an empty app account token when there is none",
        .enabled(IndependentVerifier.opensslReason) { await IndependentVerifier.opensslEnabled })
    func givenNonce() async throws {
        let response = try await route.post(
            #"""
            {"bundleId":"com.example.offerkit.other","productId":"com.example.yearly",
             "offerIdentifier":"ÜBER-50 \"quoted\"","nonce":"9F2D3C1E-6B1F-4A9E-8C8E-2A4F5D6B7C8D"}
            """#)
        #expect(response.status == 200, "\(response.text)")
        #expect(response.string("nonce") == "9f2d3c1e-6b1f-4a9e-8c8e-2a4f5d6b7c8d")
        #expect(response.string("appAccountToken") == "")
        #expect(response.string("offerIdentifier") == "ÜBER-50 \"quoted\"")
        try await expectVerified(response, bundleId: ServiceFixtures.otherApp)
    }

    @Test(
        "a signature does not verify over another message (the openssl check discriminates)",
        .enabled(IndependentVerifier.opensslReason) { await IndependentVerifier.opensslEnabled })
    func verifierDiscriminates() async throws {
        let response = try await route.post(body)
        #expect(response.status == 200, "\(response.text)")
        let signature = try #require(response.string("signature"))
        var fields = try message(response, bundleId: ServiceFixtures.app)
        fields[3] = "WINBACK51"
        let result = try await IndependentVerifier.opensslVerify(
            signatureBase64: signature, message: Array(fields.joined(separator: "\u{2063}").utf8))
        #expect(result.status != 0)
    }

    @Test(
        "an invalid body is a 422 invalid-field problem naming the field",
        arguments: [
            (#"{"bundleId":"com.example.offerkit.demo","productId":"p"}"#, "offerIdentifier"),
            (#"{"bundleId":"com.example.offerkit.demo","productId":42,"offerIdentifier":"o"}"#, "productId"),
            (#"{"bundleId":"com.example.offerkit.demo","productId":"p","offerId":"o"}"#, "offerId"),
            (#"{"bundleId":"com.example.offerkit.demo","productId":"p","offerIdentifier":""}"#, "offerIdentifier"),
            (
                #"{"bundleId":"com.example.offerkit.demo","productId":"p","offerIdentifier":"o","nonce":"n-1"}"#,
                "nonce"
            ),
            (
                #"{"bundleId":"com.example.offerkit.demo","productId":"p","offerIdentifier":"o","appAccountToken":"a\u2063b"}"#,
                "appAccountToken"
            ),
            (#"{"bundleId":"not a bundle","productId":"p","offerIdentifier":"o"}"#, "bundleId"),
        ])
    func invalidField(json: String, field: String) async throws {
        try await route.expectInvalidField(json, field: field)
    }

    @Test("an unknown bundle ID is a 404 unknown-app problem")
    func unknownApp() async throws {
        try await route.expectUnknownApp(#"{"bundleId":"com.example.unknown","productId":"p","offerIdentifier":"o"}"#)
    }

    @Test("a key without the legacy-promotional-offer scope is refused with 403, no key with 401")
    func authorization() async throws {
        try await route.expectScopeRequired("legacy-promotional-offer", json: body)
    }

    @Test("the request component's example passes its own schema and is signed")
    func requestExample() async throws {
        let (example, response) = try await route.postRequestExample(
            of: "signLegacyPromotionalOffer", component: "LegacyPromotionalOfferRequest")
        #expect(response.status == 200, "\(response.text)")
        #expect(response.json?["appAccountToken"] == example["appAccountToken"])
    }

    @Test(
        "the response component's example is a real signature of the request example by the demo key",
        .enabled(IndependentVerifier.opensslReason) { await IndependentVerifier.opensslEnabled })
    func responseExample() async throws {
        let operation = try #require(OfferService.operations.first { $0.id == "signLegacyPromotionalOffer" })
        #expect(operation.responseSchema.componentName == "LegacyPromotionalOfferSignature")
        let example = try #require(operation.responseSchema.example)
        try SchemaValidator().validate(example, against: operation.responseSchema)
        let requestExample = try #require(operation.requestSchema?.example)
        let response = ServiceResponse(status: 200, headers: [:], text: example.text(), json: example)
        #expect(response.string("productId") == requestExample["productId"].flatMap(Self.string))
        #expect(response.string("offerIdentifier") == requestExample["offerIdentifier"].flatMap(Self.string))
        let bundleId = try #require(requestExample["bundleId"].flatMap(Self.string))
        try await expectVerified(response, bundleId: bundleId)
    }

    // MARK: Independent verification

    /// The seven fields of docs/formats.md §2, in order, taken from the response (and the request's bundle ID).
    private func message(_ response: ServiceResponse, bundleId: String) throws -> [String] {
        let names = ["keyId", "productId", "offerIdentifier", "appAccountToken", "nonce"]
        let values = try names.map { name in try #require(response.string(name), "\(name) is missing") }
        guard case .number(let timestamp)? = response.json?["timestamp"] else {
            throw ResponseError(message: "timestamp is not a number: \(response.text)")
        }
        #expect(timestamp.allSatisfy { $0.isASCII && $0.isNumber }, "timestamp must be decimal digits")
        return [bundleId] + values + [timestamp]
    }

    /// Checks the response's signature with `openssl dgst -sha256 -verify` over the message of docs/formats.md §2.
    private func expectVerified(
        _ response: ServiceResponse, bundleId: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let signature = try #require(response.string("signature"), sourceLocation: sourceLocation)
        let text = try message(response, bundleId: bundleId).joined(separator: "\u{2063}")
        let result = try await IndependentVerifier.opensslVerify(signatureBase64: signature, message: Array(text.utf8))
        #expect(result.status == 0, "openssl refused the signature: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.contains("Verified OK"), sourceLocation: sourceLocation)
    }

    private static func string(_ value: JSONValue) -> String? {
        if case .string(let text) = value { text } else { nil }
    }

    private struct ResponseError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    @Test("the earlier path /v1/signatures/promotional-offer-v1 still signs, and the document marks it deprecated")
    func deprecatedPath() async throws {
        let oldPath = "/v1/signatures/promotional-offer-v1"
        let response = try await OperationRoute(path: oldPath).post(body, to: ServiceFixtures.service())
        #expect(response.status == 200, "\(response.text)")
        #expect(response.string("signature")?.isEmpty == false)
        let paths = OpenAPIDocument.document()["paths"]
        #expect(paths?[oldPath]?["post"]?["deprecated"] == .bool(true))
        guard case .string(let description)? = paths?[oldPath]?["post"]?["description"] else {
            Issue.record("the deprecated path has no description")
            return
        }
        #expect(description.contains(path), "\(description)")
        #expect(paths?[path]?["post"]?["deprecated"] == nil)
    }
}
