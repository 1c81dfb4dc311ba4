import Foundation
import OfferCodes
import OfferConnectAPI
import OfferJSON
import Testing

/// How OfferKit reads App Store Connect's answers and headers, and checks its address.
@Suite("App Store Connect: wire rules")
struct ConnectAPITests {
    @Test(arguments: [
        ("user-hour-lim:3500;user-hour-rem:500;", RateLimitStatus(limit: 3500, remaining: 500)),
        ("user-hour-rem:0;user-hour-lim:3600", RateLimitStatus(limit: 3600, remaining: 0)),
        (" user-hour-lim: 10 ; other:7; user-hour-rem: 9 ;", RateLimitStatus(limit: 10, remaining: 9)),
    ])
    func rateLimitHeadersAreRead(header: String, expected: RateLimitStatus) {
        #expect(RateLimitStatus(header: header) == expected)
    }

    @Test(arguments: [
        "", "user-hour-lim:3500;", "user-hour-lim:0;user-hour-rem:0;", "user-hour-lim:10;user-hour-rem:11;",
        "user-hour-lim:-1;user-hour-rem:0;", "user-hour-lim:99999999999999999999;user-hour-rem:1;",
        "user-hour-lim:1e3;user-hour-rem:1;", "user-hour-lim:3500;user-hour-rem:+5;",
    ])
    func rateLimitHeadersOutOfRangeAreIgnored(header: String) {
        #expect(RateLimitStatus(header: header) == nil)
    }

    @Test func retryAfterTakesSecondsOrADate() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(RetryAfter.delay("120", now: now) == .seconds(120))
        #expect(RetryAfter.delay(" 0 ", now: now) == .zero)
        #expect(RetryAfter.delay("Fri, 15 Jan 2027 08:00:30 GMT", now: now) == .seconds(30))
        #expect(RetryAfter.delay("Thu, 01 Jan 2026 00:00:00 GMT", now: now) == .zero)
        for unreadable in ["", "-5", "1.5", "soon", "9999999999", String(repeating: "1", count: 70)] {
            #expect(RetryAfter.delay(unreadable, now: now) == nil, "\(unreadable)")
        }
    }

    @Test func baseURLsMustBeHTTPSOrLoopback() throws {
        #expect(
            try ConnectAPIAddress("https://api.appstoreconnect.apple.com/").baseURL
                == "https://api.appstoreconnect.apple.com")
        #expect(try ConnectAPIAddress("http://127.0.0.1:8080").baseURL == "http://127.0.0.1:8080")
        #expect(try ConnectAPIAddress("http://localhost:9/proxy/").baseURL == "http://localhost:9/proxy")
        #expect(try ConnectAPIAddress("http://[::1]:9").baseURL == "http://[::1]:9")
        for refused in [
            "http://api.example.com", "http://10.0.0.1:80", "http://127.0.0.1.example.com", "ftp://127.0.0.1",
            "api.appstoreconnect.apple.com", "https://user:secret@example.com", "https://example.com/?a=1", "",
        ] {
            #expect(throws: ConnectError.self, "\(refused)") { try ConnectAPIAddress(refused) }
        }
        do {
            _ = try ConnectAPIAddress("http://api.example.com")
        } catch {
            #expect(error.localizedDescription.contains("plain http is refused except on the loopback interface"))
        }
    }

    @Test func appleErrorsAreReadAndBounded() {
        let body = Array(
            """
            {"errors": [{"id": "e1", "status": "409", "code": "ENTITY_ERROR.ATTRIBUTE.INVALID", "title": "Invalid",
            "detail": "Price points are not allowed\\nfor FREE_TRIAL", "source": {"pointer": "/included/1/relationships/subscriptionPricePoint"}},
            {"status": "409", "code": "STATE_ERROR", "title": "t", "detail": "\(String(repeating: "x", count: 900))",
            "source": {"parameter": "limit"}}]}
            """.utf8)
        let errors = AppleErrorDetail.parse(status: 409, body: body)
        #expect(errors.count == 2)
        #expect(errors[0].code == "ENTITY_ERROR.ATTRIBUTE.INVALID")
        #expect(errors[0].detail == "Price points are not allowedfor FREE_TRIAL")  // control characters dropped
        #expect(errors[0].source == "/included/1/relationships/subscriptionPricePoint")
        #expect(errors[1].source == "parameter limit")
        #expect(errors[1].detail.count == 501 && errors[1].detail.hasSuffix("…"))
        // Not Apple's format: one error from the status.
        #expect(AppleErrorDetail.parse(status: 500, body: Array("<html>".utf8)).map(\.code) == ["HTTP_500"])
    }

    @Test(arguments: [
        (
            ConnectResource.Kind.offer, 0, "/included/1/relationships/subscriptionPricePoint",
            "$.offers[3].prices[1].pricePoint"
        ),
        (.offer, 0, "/included/0/relationships/territory", "$.offers[3].prices[0].territory"),
        (.offer, 0, "/data/attributes/name", "$.offers[3].referenceName"),
        (.offer, 0, "/data/attributes/offerMode", "$.offers[3].paymentMode"),
        (.offer, 0, "/data/attributes/duration", "$.offers[3].duration"),
        (.offer, 0, "/data/relationships/subscription", "$.offers[3].product.id"),
        (.offer, 0, "/data/relationships/prices/data/0", "$.offers[3].prices"),
        (.offer, 0, "", "$.offers[3]"),
        (.oneTimeUse, 1, "/data/attributes/numberOfCodes", "$.offers[3].oneTimeUseCodes[1].count"),
        (.oneTimeUse, 1, "/data/attributes/expirationDate", "$.offers[3].oneTimeUseCodes[1].expirationDate"),
        (.customCode, 2, "/data/attributes/numberOfCodes", "$.offers[3].customCodes[2].redemptionLimit"),
        (.customCode, 2, "/data/attributes/customCode", "$.offers[3].customCodes[2]"),
    ])
    func pointersMapToTheCampaign(kind: ConnectResource.Kind, batch: Int, pointer: String, path: String) {
        let subject = PlannedRequest.Subject(offerIndex: 3, kind: kind, batchIndex: batch, customCode: "CODE1")
        #expect(CampaignPointer.campaignPath(pointer, subject: subject) == path)
    }

    /// Apple's pointers into a promotional, introductory or win-back offer's body, as campaign paths.
    @Test(arguments: [
        (CampaignOfferKind.promotionalOffer, "/data/attributes/offerCode", "$.promotionalOffers[2].offerIdentifier"),
        (.promotionalOffer, "/data/attributes/name", "$.promotionalOffers[2].referenceName"),
        (
            .promotionalOffer, "/included/1/relationships/subscriptionPricePoint/data/id",
            "$.promotionalOffers[2].prices[1].pricePoint"
        ),
        (
            .promotionalOffer, "/included/0/relationships/territory/data/id",
            "$.promotionalOffers[2].prices[0].territory"
        ),
        (.promotionalOffer, "/data/relationships/prices/data/1", "$.promotionalOffers[2].prices[1]"),
        (.promotionalOffer, "/data/relationships/subscription/data/id", "$.promotionalOffers[2].subscription.id"),
        (.introductoryOffer, "/data/relationships/territory/data/id", "$.introductoryOffers[2].prices[1].territory"),
        (
            .introductoryOffer, "/data/relationships/subscriptionPricePoint/data/id",
            "$.introductoryOffers[2].prices[1].pricePoint"
        ),
        (.introductoryOffer, "/data/attributes/startDate", "$.introductoryOffers[2].startDate"),
        (.winBackOffer, "/data/attributes/offerId", "$.winBackOffers[2].offerIdentifier"),
        (.winBackOffer, "/data/attributes/periodCount", "$.winBackOffers[2].numberOfPeriods"),
        (
            .winBackOffer, "/data/attributes/customerEligibilityTimeSinceLastSubscribedInMonths/minimum",
            "$.winBackOffers[2].customerEligibility.timeSinceLastSubscribedInMonths.minimum"
        ),
        (.winBackOffer, "/data", "$.winBackOffers[2]"),
    ])
    func subscriptionOfferPointersMapToTheCampaign(kind: CampaignOfferKind, pointer: String, path: String) {
        let subject = PlannedRequest.Subject(offerKind: kind, offerIndex: 2, name: "x", priceIndex: 1)
        #expect(CampaignPointer.campaignPath(pointer, subject: subject) == path)
    }

    @Test func listPagesWithRelationshipsAndIncludedResources() throws {
        let body = Array(
            """
            {"data": [
              {"type": "subscriptionPricePoints", "id": "p1", "attributes": {"customerPrice": "4.99"},
               "relationships": {"territory": {"data": {"type": "territories", "id": "USA"}}}},
              {"type": "subscriptionPricePoints", "id": "p2", "attributes": {"customerPrice": "5.99"},
               "relationships": {"territory": {"data": {"type": "territories", "id": 7}}}},
              {"type": "subscriptionPricePoints", "id": "p3", "attributes": {}, "relationships": []}
             ],
             "included": [{"type": "territories", "id": "USA", "attributes": {"currency": "USD"}}, {"id": "x"}],
             "links": {"self": "https://a/v1/x"}}
            """.utf8)
        let page = try #require(ConnectListPage(body))
        #expect(page.items.map(\.id) == ["p1", "p2", "p3"])
        #expect(page.items.map { $0.related("territory") } == ["USA", nil, nil])
        #expect(page.items[0].type == "subscriptionPricePoints")
        #expect(page.items[2].relationships == nil, "relationships that are not an object are left out")
        #expect(page.included.map(\.id) == ["USA"], "included resources are read as listed ones are")
        #expect(page.included.first?.attributes["currency"] == .string("USD"))
        #expect(page.next == nil)
    }

    @Test func listPagesAndMatching() throws {
        let body = Array(
            """
            {"data": [
              {"type": "subscriptionOfferCodeOneTimeUseCodes", "id": "1", "attributes": {"numberOfCodes": 500, "expirationDate": "2027-05-01"}},
              {"type": "subscriptionOfferCodeOneTimeUseCodes", "id": "2", "attributes": {"numberOfCodes": 500, "expirationDate": "2027-05-01", "environment": "SANDBOX"}},
              {"type": "x", "id": "", "attributes": {}}, {"type": "x", "id": "3"}
            ], "links": {"self": "https://a/v1/x", "next": "https://a/v1/x?cursor=Mg"}}
            """.utf8)
        let page = try #require(ConnectListPage(body))
        #expect(page.items.map(\.id) == ["1", "2"])
        #expect(page.next == "https://a/v1/x?cursor=Mg")
        let planned = try JSONValue.parse(Array(#"{"numberOfCodes": 500, "expirationDate": "2027-05-01"}"#.utf8))
        let sandbox = try JSONValue.parse(
            Array(#"{"numberOfCodes": 500, "expirationDate": "2027-05-01", "environment": "SANDBOX"}"#.utf8))
        #expect(ConnectListPage.matches(page.items[0].attributes, planned, kind: .oneTimeUse))
        #expect(!ConnectListPage.matches(page.items[1].attributes, planned, kind: .oneTimeUse))
        #expect(ConnectListPage.matches(page.items[1].attributes, sandbox, kind: .oneTimeUse))
        let code = try JSONValue.parse(Array(#"{"customCode": "Spring27"}"#.utf8))
        let found = try JSONValue.parse(Array(#"{"customCode": "SPRING27", "numberOfCodes": 10}"#.utf8))
        #expect(ConnectListPage.matches(found, code, kind: .customCode))
        #expect(!ConnectListPage.matches(found, code, kind: .offer))
        #expect(ConnectListPage(Array("[]".utf8)) == nil)
        #expect(ConnectListPage.createdId(Array(#"{"data": {"id": "6500"}}"#.utf8)) == "6500")
        #expect(ConnectListPage.createdId(Array(#"{"data": {"id": "65 00"}}"#.utf8)) == nil)
        #expect(ConnectListPage.createdId(Array(#"{"data": {"id": 6500}}"#.utf8)) == nil)
    }
}
