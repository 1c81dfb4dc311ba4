import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import OfferCodes
import OfferJSON
import OfferSigning
import Testing

@testable import OfferService

@Suite("POST /v1/campaigns/validate")
struct ValidateCampaignTests {
    let path = "/v1/campaigns/validate"
    var route: OperationRoute { OperationRoute(path: path) }
    static let today = CalendarDate(year: 2027, month: 3, day: 15)!

    /// `examples/campaign.json`, as text.
    static let exampleText: String = {
        let url = ServiceFixtures.packageRoot.appendingPathComponent("examples/campaign.json")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            fatalError("examples/campaign.json is missing")
        }
        return text
    }()

    /// A request body: `{"campaign": <campaign>, "today": <today>}`.
    static func body(_ campaign: String, today: String? = "2027-03-15") -> String {
        #"{"campaign":\#(campaign)"# + (today.map { #","today":"\#($0)""# } ?? "") + "}"
    }

    /// A one-offer campaign whose one-time-use codes expire on `expiry`.
    static func campaign(expiring expiry: String) -> String {
        """
        {"name":"gems-launch","app":{"bundleId":"com.example.offerkit.demo","appAppleId":"1234567890"},
         "offers":[{"referenceName":"Gem pack launch",
           "product":{"id":"6450000009","productId":"com.example.offerkit.gems100","type":"CONSUMABLE"},
           "paymentMode":"ONE_TIME","customerEligibilities":["NON_SPENDER"],"prices":[{"territory":"USA","free":true}],
           "oneTimeUseCodes":[{"count":100,"expirationDate":"\(expiry)"}]}]}
        """
    }

    /// The problems the library finds in `campaign` on ``today``, as the service writes them.
    static func libraryProblems(_ campaign: String, today: CalendarDate = today) throws -> [JSONValue] {
        try CampaignValidator(today: today).validate(json: Array(campaign.utf8)).problems.map { problem in
            var members: [(key: String, value: JSONValue)] = [
                ("path", .string(problem.path)), ("rule", .string(problem.rule)),
                ("message", .string(problem.message)),
            ]
            if let allowed = problem.allowed { members.append(("allowed", .string(allowed))) }
            return .object(members)
        }
    }

    @Test("examples/campaign.json is valid: 200 with valid true and no problems")
    func validExample() async throws {
        let response = try await route.post(Self.body(Self.exampleText))
        #expect(response.status == 200, "\(response.text)")
        #expect(response.headers[.contentType] == "application/json")
        #expect(response.text == #"{"valid":true,"problems":[],"problemCount":0,"truncated":false}"# + "\n")
        #expect(try CampaignValidator(today: Self.today).validate(json: Array(Self.exampleText.utf8)).isValid)
    }

    @Test("an invalid campaign is a 200 with valid false and every problem the library finds, in order")
    func invalidExample() async throws {
        let broken = Self.exampleText
            .replacingOccurrences(of: #""paymentMode": "PAY_AS_YOU_GO""#, with: #""paymentMode": "ONE_TIME""#)
            .replacingOccurrences(of: #""duration": "ONE_YEAR""#, with: #""duration": "TWO_YEARS""#)
            .replacingOccurrences(
                of: #""customerEligibilities": ["EXPIRED"]"#, with: #""customerEligibilites": ["EXPIRED"]"#)
        #expect(broken != Self.exampleText)
        let response = try await route.post(Self.body(broken))
        #expect(response.status == 200, "\(response.text)")
        #expect(response.json?["valid"] == .bool(false))
        let problems = try #require(response.json?["problems"])
        let expected = try Self.libraryProblems(broken)
        #expect(problems == .array(expected))
        #expect(response.json?["problemCount"] == .integer(expected.count))
        #expect(response.json?["truncated"] == .bool(false))
        guard case .array(let list) = problems else { return }
        let paths = list.compactMap { if case .string(let path)? = $0["path"] { path } else { nil } }
        #expect(paths.contains("$.offers[1].paymentMode"))
        #expect(paths.contains("$.offers[2].customerEligibilites"))
        let paymentMode = list.first { $0["path"] == .string("$.offers[1].paymentMode") }
        #expect(paymentMode?["rule"] == .string("payment-mode-for-product-type"))
    }

    @Test("a campaign with no members lists what is missing")
    func emptyCampaign() async throws {
        let response = try await route.post(Self.body("{}"))
        #expect(response.status == 200, "\(response.text)")
        #expect(response.json?["valid"] == .bool(false))
        let expected = try Self.libraryProblems("{}")
        #expect(!expected.isEmpty)
        #expect(response.json?["problems"] == .array(expected))
    }

    @Test("today defaults to the service clock's day in UTC, and the request's today overrides it")
    func todayFromClock() async throws {
        let campaign = Self.campaign(expiring: "2027-04-01")
        let march = Date(timeIntervalSince1970: 1_805_155_199)  // 2027-03-15T23:59:59Z
        let april = Date(timeIntervalSince1970: 1_806_624_000)  // 2027-04-02T00:00:00Z
        let before = ServiceFixtures.application(try ServiceFixtures.service(clock: .fixed(march)))
        try await before.test(.router) { client in
            let response = try await client.send(
                .post, path, json: Self.body(campaign, today: nil), key: ServiceFixtures.admin.secret)
            #expect(response.json?["valid"] == .bool(true), "\(response.text)")
        }
        let after = ServiceFixtures.application(try ServiceFixtures.service(clock: .fixed(april)))
        try await after.test(.router) { client in
            let response = try await client.send(
                .post, path, json: Self.body(campaign, today: nil), key: ServiceFixtures.admin.secret)
            #expect(response.json?["valid"] == .bool(false), "\(response.text)")
            let expected = try Self.libraryProblems(campaign, today: CalendarDate(year: 2027, month: 4, day: 2)!)
            #expect(response.json?["problems"] == .array(expected))
            #expect(expected.first?["path"] == .string("$.offers[0].oneTimeUseCodes[0].expirationDate"))
            #expect(expected.first?["rule"] == .string("one-time-use-expiry"))

            let overridden = try await client.send(
                .post, path, json: Self.body(campaign, today: "2027-03-15"), key: ServiceFixtures.admin.secret)
            #expect(overridden.json?["valid"] == .bool(true), "\(overridden.text)")
        }
    }

    @Test(
        "a today that is not a calendar day is a 422 naming today",
        arguments: [#""2027-02-30""#, #""2027-13-01""#, #""15.03.2027""#, #""2027-3-15""#, "20270315", "null"])
    func invalidToday(_ today: String) async throws {
        try await route.expectInvalidField(#"{"campaign":\#(Self.exampleText),"today":\#(today)}"#, field: "today")
    }

    @Test(
        "a missing or non-object campaign, or an unknown member, is a 422 naming it",
        arguments: [
            (#"{"today":"2027-03-15"}"#, "campaign"),
            (#"{"campaign":[]}"#, "campaign"),
            (#"{"campaign":"spring-2027"}"#, "campaign"),
            (#"{"campaign":null}"#, "campaign"),
            (#"{"campaign":{},"ledger":"offerkit-ledger.sqlite"}"#, "ledger"),
        ])
    func invalidField(_ json: String, _ field: String) async throws {
        try await route.expectInvalidField(json, field: field)
    }

    // MARK: Bounds

    /// `{"offers": [{}, {}, …]}`: `count` empty offers.
    static func emptyOffers(_ count: Int) -> String {
        #"{"offers":["# + Array(repeating: "{}", count: count).joined(separator: ",") + "]}"
    }

    /// A valid one-offer campaign (as ``campaign(expiring:)``) with `member` of its offer set to
    /// `value` (JSON text).
    static func offer(_ member: String, _ value: String) -> String {
        var members = [
            ("referenceName", #""Gem pack launch""#),
            ("product", #"{"id":"6450000009","productId":"com.example.offerkit.gems100","type":"CONSUMABLE"}"#),
            ("paymentMode", #""ONE_TIME""#), ("customerEligibilities", #"["NON_SPENDER"]"#),
            ("prices", #"[{"territory":"USA","free":true}]"#),
            ("oneTimeUseCodes", #"[{"count":100,"expirationDate":"2027-04-01"}]"#),
        ]
        if let index = members.firstIndex(where: { $0.0 == member }) {
            members[index].1 = value
        } else {
            members.append((member, value))
        }
        let offer = "{" + members.map { #""\#($0.0)":\#($0.1)"# }.joined(separator: ",") + "}"
        return #"{"name":"gems-launch","app":{"bundleId":"com.example.offerkit.demo","appAppleId":"1234567890"},"#
            + #""offers":[\#(offer)]}"#
    }

    /// `count` copies of `element`, as a JSON array.
    static func list(_ element: String, _ count: Int) -> String {
        "[" + Array(repeating: element, count: count).joined(separator: ",") + "]"
    }

    @Test("a campaign of 340,000 empty offers (1 MiB) is a small 422 naming campaign.offers, not a list of problems")
    func hugeOffers() async throws {
        let body = Self.body(Self.emptyOffers(340_000))
        #expect(body.utf8.count > 1_000_000 && body.utf8.count <= ServiceLimits().maxBodyBytes)
        let response = try await route.expectInvalidField(body, field: "campaign.offers")
        #expect(response.string("detail")?.contains("at most \(CampaignSchemas.maximumOffers)") == true)
        #expect(response.text.utf8.count < 10_000, "\(response.text.utf8.count) bytes")
    }

    @Test("100 offers pass the schema and get the campaign rules' problems; 101 are a 422")
    func offersBound() async throws {
        let response = try await route.post(Self.body(Self.emptyOffers(CampaignSchemas.maximumOffers)))
        #expect(response.status == 200, "\(response.text.prefix(500))")
        let expected = try Self.libraryProblems(Self.emptyOffers(CampaignSchemas.maximumOffers))
        #expect(response.json?["problemCount"] == .integer(expected.count))
        guard case .array(let problems)? = response.json?["problems"] else {
            Issue.record("no problems")
            return
        }
        #expect(problems.contains { $0["rule"] == .string("active-offers-limit") })
        try await route.expectInvalidField(
            Self.body(Self.emptyOffers(CampaignSchemas.maximumOffers + 1)), field: "campaign.offers")
    }

    @Test(
        "the lists of an offer are bounded: 422 naming the list one element over the bound",
        arguments: [
            ("prices", #"{"territory":"USA","free":true}"#, CampaignSchemas.maximumPrices),
            ("customerEligibilities", #""NON_SPENDER""#, CampaignSchemas.maximumCustomerEligibilities),
            ("oneTimeUseCodes", #"{"count":1,"expirationDate":"2027-04-01"}"#, CampaignSchemas.maximumBatches),
            ("customCodes", #"{"codes":["A"],"redemptionLimit":1}"#, CampaignSchemas.maximumBatches),
        ])
    func offerListBounds(_ member: String, _ element: String, _ maximum: Int) async throws {
        let within = try await route.post(Self.body(Self.offer(member, Self.list(element, maximum))))
        #expect(within.status == 200, "\(within.text.prefix(500))")
        let over = Self.offer(member, Self.list(element, maximum + 1))
        try await route.expectInvalidField(Self.body(over), field: "campaign.offers[0].\(member)")
    }

    @Test("null batch lists are still left to the campaign rules, as offerkit codes validate reads them")
    func nullBatchLists() async throws {
        for member in ["oneTimeUseCodes", "customCodes"] {
            let campaign = Self.offer(member, "null")
            let response = try await route.post(Self.body(campaign))
            #expect(response.status == 200, "\(response.text)")
            #expect(response.json?["problems"] == .array(try Self.libraryProblems(campaign)))
        }
    }

    @Test("more than 1000 problems: the first 1000 in document order, problemCount the total, truncated true")
    func truncatedProblems() async throws {
        let offer = #"{"prices":"# + Self.list("{}", CampaignSchemas.maximumPrices) + "}"
        let campaign = #"{"offers":"# + Self.list(offer, 10) + "}"
        let expected = try Self.libraryProblems(campaign)
        #expect(expected.count > CampaignSchemas.maximumListedProblems)
        let response = try await route.post(Self.body(campaign))
        #expect(response.status == 200, "\(response.text.prefix(500))")
        #expect(response.json?["valid"] == .bool(false))
        #expect(response.json?["problemCount"] == .integer(expected.count))
        #expect(response.json?["truncated"] == .bool(true))
        #expect(response.json?["problems"] == .array(Array(expected.prefix(CampaignSchemas.maximumListedProblems))))
    }

    @Test("a cancelled validation (the request timed out) stops with CancellationError")
    func cancellation() async throws {
        let service = try ServiceFixtures.service()
        let body = try JSONValue.parse(Array(Self.body(Self.emptyOffers(CampaignSchemas.maximumOffers)).utf8))
        let request = OperationRequest(
            body: body, query: [:], headers: [:], apiKey: nil, state: service.state,
            logger: Logger(label: "offerkit.tests"))
        let operation = try #require(OfferService.operations.first { $0.id == "validateCampaign" })
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await operation.handler(request)
        }
        do {
            _ = try await task.value
            Issue.record("the cancelled validation ran to its end")
        } catch {
            #expect(error is CancellationError, "\(error)")
        }
    }

    @Test("no API key is a 401; a key without the campaigns scope is a 403")
    func authentication() async throws {
        try await route.expectScopeRequired("campaigns", json: Self.body(Self.exampleText))
    }
}
