import Foundation
import HummingbirdTesting
import OfferCodes
import OfferJSON
import OfferSigning
import Testing

@testable import LedgerTestSupport
@testable import OfferService

/// The service reads every enumerated value of a request or of its configuration in any case and
/// answers with one spelling, Apple's where Apple has one; a value that is no spelling is refused
/// with the field, the value and the spellings.
@Suite("Enumerated values in any case")
struct EnumeratedInputTests {
    typealias F = CodeLedgerFixtures

    @Test(
        "a claim's environment in any case is App Store Connect's, answered in its spelling",
        arguments: [("SANDBOX", "PRODUCTION"), ("Sandbox", "Production"), ("sandbox", "production")])
    func claimEnvironment(sandbox: String, production: String) async throws {
        try await ClaimCodeTests.withService(.sqlite) { client, _ in
            let claim = try ClaimCodeTests.claimed(
                try await client.claim("tester", offer: "Trial", environment: sandbox))
            #expect(claim["code"] == .string("SANDBOX1") && claim["environment"] == .string("SANDBOX"))
            let other = try ClaimCodeTests.claimed(
                try await client.claim("tester", offer: "Trial", environment: production))
            #expect(other["environment"] == .string("PRODUCTION"), "\(other.text())")
        }
    }

    @Test("an environment that is none shows the value given and the spellings, bounded")
    func unknownEnvironment() async throws {
        try await ClaimCodeTests.withService(.sqlite) { client, _ in
            let response = try await client.claim("u", environment: "staging")
            #expect(response.status == 422 && response.problemSlug == "invalid-field", "\(response.text)")
            #expect(response.string("field") == "environment")
            let detail = try #require(response.string("detail"))
            #expect(
                detail == #"environment: expected one of PRODUCTION, SANDBOX (in any case), found "staging""#,
                "\(detail)")
            let secret = ServiceFixtures.admin.secret
            let long = try await client.claim("u", environment: secret)
            #expect(long.status == 422, "\(long.text)")
            #expect(!long.text.contains(secret), "a long value is never echoed: \(long.text)")
            #expect(long.string("detail")?.contains("characters (not shown)") == true, "\(long.text)")
            let control = try await client.claim("u", environment: "prod\u{1B}[2J")
            #expect(control.string("detail")?.contains(#""prod\u{1b}[2J""#) == true, "\(control.text)")
        }
    }

    @Test("a batch item's type in any case is the operation; the result names it in its one spelling")
    func batchType() async throws {
        let single = SignBatchTests.singles[0]
        let items = [
            SignBatchTests.item("PROMOTIONAL-OFFER", single.body),
            SignBatchTests.item(
                "Server-API-Token",
                SignBatchTests.singles[4].body),
        ]
        let results = try SignBatchTests.results(try await SignBatchTests.post(SignBatchTests.batch(items)))
        #expect(results.map { $0["type"] } == [.string("promotional-offer"), .string("server-api-token")])
        #expect(results.map { $0["status"] } == [.integer(200), .integer(200)], "\(results.map { $0.text() })")
    }

    @Test("an Advanced Commerce request's Apple values in any case are signed in Apple's spelling")
    func advancedCommerce() async throws {
        let canonical = """
            {"operation":"CREATE_SUBSCRIPTION","version":"1","requestInfo":{"requestReferenceId":\
            "1b6a6f0e-8a43-4c2b-9d8e-2f0a7c5e4b31"},"currency":"EUR","taxCode":"C003-00-2","descriptors":\
            {"description":"Monthly news","displayName":"News Monthly"},"items":[{"SKU":"com.example.news.basic",\
            "description":"Every article","displayName":"News Basic","price":4990,"offer":{"period":"P1M",\
            "periodCount":3,"price":990,"reason":"ACQUISITION"}}],"period":"P1M","storefront":"DEU"}
            """
        let respelled =
            canonical.replacingOccurrences(of: "CREATE_SUBSCRIPTION", with: "create_subscription")
            .replacingOccurrences(of: "\"P1M\"", with: "\"p1m\"").replacingOccurrences(
                of: "ACQUISITION", with: "Acquisition")
        let response = try await OperationRoute(path: "/v1/signatures/advanced-commerce").post(
            #"{"bundleId":"com.example.offerkit.demo","request":"# + respelled + "}")
        #expect(response.status == 200, "\(response.text)")
        let jws = try #require(response.string("jws"))
        let payload = try #require(Self.base64URL(String(jws.split(separator: ".")[1])))
        let claims = try JSONValue.parse(Array(payload))
        guard case .string(let request)? = claims["request"] else {
            Issue.record("no request claim: \(claims.text())")
            return
        }
        #expect(Data(base64Encoded: request).map { String(decoding: $0, as: UTF8.self) } == canonical)
    }

    static func base64URL(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    static let message = "7c9e6679-7425-40de-944b-e07fc1f90ae7"

    @Test("the configuration's retention environments, rules' values and API key scopes are read in any case")
    func configuration() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "service.json",
            #"""
            {"apps": {\#(RetentionConfigurationTests.demo)},
             "apiKeys": [{"name": "a", "sha256": "\#(String(repeating: "ab", count: 32))",
                          "scopes": ["PROMOTIONAL-OFFER", "Codes"], "bundleIds": ["*"]}],
             "retention": {"environments": ["sandbox", "PRODUCTION"],
                           "apps": {"com.example.offerkit.demo": [
                             {"productId": "p", "alternateProduct": {"messageIdentifier": "\#(Self.message)",
                              "productId": "q", "billingPlanType": "billed_upfront"}},
                             {"promotionalOffer": {"messageIdentifier": "\#(Self.message)", "productId": "p",
                              "offerIdentifier": "o", "signature": "V1"}}]}}}
            """#)
        let configuration = try ServiceConfiguration.load(path: path, environment: [:])
        #expect(configuration.retention?.environments == [.sandbox, .production])
        #expect(configuration.retention?.rules["com.example.offerkit.demo"]?.rules.count == 2)
        #expect(configuration.apiKeys.first?.scopes == [.promotionalOffer, .codes])

        let wrong = try folder.write(
            "wrong.json",
            #"{"apps": {\#(RetentionConfigurationTests.demo)}, "retention": {"environments": ["staging"]}}"#)
        let error = try #require(throws: ConfigurationError.self) {
            try ServiceConfiguration.load(path: wrong, environment: [:])
        }
        let message = try #require(error.errorDescription)
        #expect(message.contains("retention.environments[0]") && message.contains(#""staging""#), "\(message)")
    }

    @Test("the document lists App Store Connect's spellings of a claim's environment and says any case is read")
    func document() throws {
        let document = OpenAPIDocument.document()
        let schemas = document["components"]?["schemas"]
        let environment = schemas?["ClaimCodeRequest"]?["properties"]?["environment"]
        #expect(
            environment?["enum"] == .array([.string("PRODUCTION"), .string("SANDBOX")]), "\(environment?.text() ?? "")")
        #expect(environment?["description"]?.text().contains("any case") == true)
        guard case .string(let description)? = document["info"]?["description"] else {
            Issue.record("no info.description")
            return
        }
        #expect(description.contains("**Names.**") && description.contains("matched in any case"))
    }
}
