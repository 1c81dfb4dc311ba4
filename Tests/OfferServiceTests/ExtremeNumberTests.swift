import Foundation
import Hummingbird
import HummingbirdTesting
import OfferService
import OfferSigning
import Testing

/// Every numeric field of every operation, given the extremes of JSON numbers: Int64 bounds and one
/// past them, −0, huge and tiny exponents, fractions. Each answer is 200 or a 4xx problem naming
/// the field; none is a 5xx, and the service keeps answering.
@Suite("Extreme numbers in request bodies")
struct ExtremeNumberTests {
    static let extremes = [
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "-0", "0",
        "-0.0", "1e400", "-1e400", "1e-400", "1e999999999999", "0.5", "4.99e3", "1E+19",
        "99999999999999999999999999999999999999",
    ]

    /// An operation path and a body with `N` where the number goes.
    static let fields: [(path: String, body: String)] = [
        ("/v1/tokens/server-api", #"{"bundleId":"com.example.offerkit.demo","lifetime":N}"#),
        ("/v1/tokens/connect-api", #"{"lifetime":N}"#),
        (
            "/v1/signatures/advanced-commerce",
            #"{"bundleId":"com.example.offerkit.demo","request":{"operation":"CREATE_ONE_TIME_CHARGE","version":"1","requestInfo":{"requestReferenceId":"7b3c6a1e-2f4d-4e8a-9c1b-5d6e7f8a9b0c"},"currency":"USD","storefront":"USA","taxCode":"C003-00-2","item":{"SKU":"sku","description":"d","displayName":"n","price":N}}}"#
        ),
        ("/v1/campaigns/validate", ValidateCampaignTests.body(campaign(count: "N"))),
        ("/v1/campaigns/validate", ValidateCampaignTests.body(campaign(count: "10", length: "N"))),
        ("/v1/campaigns/plan", ValidateCampaignTests.body(campaign(count: "N"))),
    ]

    /// A one-offer campaign with a generated custom-code batch.
    static func campaign(count: String, length: String = "12") -> String {
        """
        {"name":"gems-launch","app":{"bundleId":"com.example.offerkit.demo","appAppleId":"1234567890"},
         "offers":[{"referenceName":"Gem pack launch",
           "product":{"id":"6450000009","productId":"com.example.offerkit.gems100","type":"CONSUMABLE"},
           "paymentMode":"ONE_TIME","customerEligibilities":["NON_SPENDER"],"prices":[{"territory":"USA","free":true}],
           "customCodes":[{"redemptionLimit":1,"generate":{"count":\(count),"prefix":"A","length":\(length)}}]}]}
        """
    }

    @Test("no extreme number in any numeric field is answered 5xx", arguments: Array(0..<fields.count))
    func noServerErrors(field: Int) async throws {
        let (path, template) = Self.fields[field]
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            for number in Self.extremes {
                let body = template.replacingOccurrences(of: ":N", with: ":" + number)
                let response = try await client.send(.post, path, json: body, key: ServiceFixtures.admin.secret)
                #expect(
                    response.status < 500, "\(path) with \(number): \(response.status) \(response.text)")
                if response.status >= 400 {
                    #expect(response.headers[.contentType] == "application/problem+json", "\(path) \(number)")
                }
            }
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok)
        }
    }

    @Test("an Advanced Commerce price is read exactly: 4.99e3 is signed as 4990, 1e-400 is refused naming the price")
    func advancedCommercePriceSpellings() async throws {
        let (path, template) = Self.fields[2]
        let signed = try await OperationRoute(path: path).post(template.replacingOccurrences(of: ":N", with: ":4.99e3"))
        #expect(signed.status == 200, "\(signed.text)")
        let jws = try #require(signed.string("jws"))
        let verified = try JWSVerifier(publicKeyPEM: ServiceFixtures.publicKeyPEM).verify(jws, as: .advancedCommerce)
        let request = String(decoding: try #require(verified.advancedCommerceRequest).jsonBytes, as: UTF8.self)
        #expect(request.contains(#""price":4990"#), "\(request)")
        for number in ["1e-400", "0.5", "9223372036854775808"] {
            let refused = try await OperationRoute(path: path).post(
                template.replacingOccurrences(of: ":N", with: ":" + number))
            #expect(refused.status == 422 || refused.status == 400, "\(number): \(refused.text)")
            #expect(refused.string("field")?.hasSuffix("price") == true, "\(number): \(refused.text)")
            #expect(refused.string("detail")?.contains(number) == true, "\(number): \(refused.text)")
        }
    }
}
