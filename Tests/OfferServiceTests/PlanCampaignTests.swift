import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import OfferCodes
import OfferJSON
import OfferSigning
import Testing

@testable import OfferService

@Suite("POST /v1/campaigns/plan")
struct PlanCampaignTests {
    let path = "/v1/campaigns/plan"
    var route: OperationRoute { OperationRoute(path: path) }
    static let today = CalendarDate(year: 2027, month: 3, day: 15)!
    static let defaultAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

    /// `count` distinct codes: `prefix` followed by `length` characters of `alphabet`, counting up
    /// (built here, not by the library's generator).
    static func codes(_ count: Int, prefix: String, length: Int, alphabet: String = defaultAlphabet) -> [String] {
        let characters = Array(alphabet)
        return (0..<count).map { number in
            var value = number
            var random = ""
            for _ in 0..<length {
                random.append(characters[value % characters.count])
                value /= characters.count
            }
            return prefix + random
        }
    }

    /// The generated batches of examples/campaign.json: (offer index, offer name, batch index, codes).
    static let exampleBatches: [(offer: Int, name: String, batch: Int, codes: [String])] = [
        (1, "Spring half price, 3 months", 1, codes(200, prefix: "VIP", length: 8)),
        (4, "Pro unlock for press and reviewers", 1, codes(100, prefix: "", length: 10)),
        (5, "Season pass, 30% off", 0, codes(1000, prefix: "SEASON", length: 6)),
    ]

    /// A `customCodes` entry.
    static func entry(_ offer: String, batch: Int, codes: [String]) -> String {
        let list = codes.map { "\"\($0)\"" }.joined(separator: ",")
        return #"{"offer":"\#(offer)","batch":\#(batch),"codes":[\#(list)]}"#
    }

    /// A request body.
    static func body(_ campaign: String, entries: [String]? = nil, today: String = "2027-03-15") -> String {
        #"{"campaign":\#(campaign),"today":"\#(today)""#
            + (entries.map { #","customCodes":[\#($0.joined(separator: ","))]"# } ?? "") + "}"
    }

    /// A one-offer campaign: a generated batch of 3 codes (`VIP` and 4 characters), then a given code
    /// that the generated batch could also produce.
    static let small = """
        {"name":"gems-launch","app":{"bundleId":"com.example.offerkit.demo","appAppleId":"1234567890"},
         "offers":[{"referenceName":"Gem pack launch",
           "product":{"id":"6450000009","productId":"com.example.offerkit.gems100","type":"CONSUMABLE"},
           "paymentMode":"ONE_TIME","customerEligibilities":["NON_SPENDER"],"prices":[{"territory":"USA","free":true}],
           "customCodes":[{"generate":{"count":3,"prefix":"VIP","length":4},"redemptionLimit":1},
                          {"codes":["VIPABCD"],"redemptionLimit":5}]}]}
        """

    /// What the library plans for `campaign` with `supplied` codes per (offer, batch): the document
    /// `offerkit codes plan` prints.
    static func libraryPlan(_ campaign: String, _ supplied: [[Int]: [String]]) throws -> JSONValue {
        let model = try CampaignValidator(today: today).validate(json: Array(campaign.utf8)).validCampaign()
        let requests = try RequestPlanner().planCampaign(model) { offer, batch in supplied[[offer, batch]] ?? [] }
        return RequestPlanner.document(campaign: model, requests: requests)
    }

    @Test("plans examples/campaign.json with the codes of its generated batches, as the library does")
    func example() async throws {
        let campaign = ValidateCampaignTests.exampleText
        let entries = Self.exampleBatches.map { Self.entry($0.name, batch: $0.batch + 1, codes: $0.codes) }
        let response = try await route.post(Self.body(campaign, entries: entries))
        #expect(response.status == 200, "\(response.text.prefix(2000))")
        #expect(response.headers[.contentType] == "application/json")
        var supplied: [[Int]: [String]] = [:]
        for batch in Self.exampleBatches { supplied[[batch.offer, batch.batch]] = batch.codes }
        let expected = try Self.libraryPlan(campaign, supplied)
        #expect(response.json == expected)

        // Independently of the library: one request per offer, one-time-use batch and custom code.
        let file = try JSONSerialization.jsonObject(with: Data(campaign.utf8)) as? [String: Any]
        let offers = try #require(file?["offers"] as? [[String: Any]])
        var expectedCount = 0
        for offer in offers {
            expectedCount += 1 + ((offer["oneTimeUseCodes"] as? [Any])?.count ?? 0)
            for batch in (offer["customCodes"] as? [[String: Any]]) ?? [] {
                let generated = (batch["generate"] as? [String: Any])?["count"] as? Int
                expectedCount += generated ?? (batch["codes"] as? [Any])?.count ?? 0
            }
        }
        // One request per promotional and win-back offer, one per introductory offer's territory.
        for member in ["promotionalOffers", "winBackOffers"] {
            expectedCount += (file?[member] as? [Any])?.count ?? 0
        }
        for offer in (file?["introductoryOffers"] as? [[String: Any]]) ?? [] {
            expectedCount += (offer["prices"] as? [Any])?.count ?? 0
        }
        guard case .array(let requests)? = response.json?["requests"] else {
            Issue.record("no requests in \(response.text.prefix(500))")
            return
        }
        #expect(requests.count == expectedCount)
        #expect(response.json?["campaign"] == .string("spring-2027"))
        // offers[1]: its given code SPRING27 is custom code 1, the generated batch follows.
        let second = requests.first { $0["id"] == .string("offer-2-custom-code-2") }
        #expect(second?["body"]?["data"]?["attributes"]?["customCode"] == .string(Self.exampleBatches[0].codes[0]))
        #expect(second?["dependsOn"] == .array([.string("offer-2")]))
    }

    @Test("a campaign without generated batches needs no customCodes")
    func givenCodesOnly() async throws {
        let campaign = Self.small.replacingOccurrences(
            of: #"{"generate":{"count":3,"prefix":"VIP","length":4},"redemptionLimit":1},"#, with: "")
        #expect(campaign != Self.small)
        let response = try await route.post(Self.body(campaign))
        #expect(response.status == 200, "\(response.text)")
        let expected = try Self.libraryPlan(campaign, [:])
        #expect(response.json == expected)
    }

    @Test("supplied codes that fit the batch are planned in their order")
    func smallCampaign() async throws {
        let codes = ["VIPAAAA", "VIPZZZZ", "VIP2345"]
        let response = try await route.post(
            Self.body(Self.small, entries: [Self.entry("Gem pack launch", batch: 1, codes: codes)]))
        #expect(response.status == 200, "\(response.text)")
        let expected = try Self.libraryPlan(Self.small, [[0, 0]: codes])
        #expect(response.json == expected)
        guard case .array(let requests)? = response.json?["requests"] else { return }
        let planned = requests.compactMap { $0["body"]?["data"]?["attributes"]?["customCode"] }
        #expect(planned == (codes + ["VIPABCD"]).map { .string($0) })
    }

    @Test("plans the promotional, introductory and win-back offers of examples/subscription-offers.json")
    func subscriptionOffers() async throws {
        let url = ServiceFixtures.packageRoot.appendingPathComponent("examples/subscription-offers.json")
        let campaign = try String(contentsOf: url, encoding: .utf8)
        let response = try await route.post(Self.body(campaign))
        #expect(response.status == 200, "\(response.text)")
        let model = try CampaignValidator(today: Self.today).validate(json: Array(campaign.utf8)).validCampaign()
        let requests = try RequestPlanner().planCampaign(model) { _, _ in [] }
        #expect(response.json == RequestPlanner.document(campaign: model, requests: requests))
        guard case .array(let planned)? = response.json?["requests"] else { return }
        #expect(
            planned.compactMap { $0["id"] }
                == [
                    "promotional-offer-1", "introductory-offer-1-USA", "introductory-offer-1-GBR",
                    "introductory-offer-1-JPN", "win-back-offer-1",
                ].map { JSONValue.string($0) })

        // A price named by what customers pay: the service does not look price points up.
        let pricePoint = #""pricePoint": "eyJzIjoiNjQ1MDAwMDAwMSIsInQiOiJHQlIiLCJwIjoiMTAwMTAifQ""#
        #expect(campaign.contains(pricePoint))
        let named = campaign.replacingOccurrences(of: pricePoint, with: #""customerPrice": "4.99""#)
        let refused = try await route.post(Self.body(named))
        #expect(refused.status == 422, "\(refused.text)")
        #expect(refused.problemSlug == "invalid-field")
        #expect(refused.string("field") == "campaign")
        #expect(
            refused.string("detail")?.contains(
                "win-back offer 1 (\"winback_3m_for_1\"): the GBR price is the customer price 4.99") == true,
            "\(refused.text)")
    }

    @Test("a generated batch without codes is a 422 naming customCodes, the offer and how to get codes")
    func missingCodes() async throws {
        let campaign = ValidateCampaignTests.exampleText
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let none = try await client.send(.post, path, json: Self.body(campaign), key: ServiceFixtures.admin.secret)
            #expect(none.status == 422, "\(none.text)")
            #expect(none.problemSlug == "invalid-field")
            #expect(none.string("field") == "customCodes")
            let detail = none.string("detail") ?? ""
            #expect(detail.contains("Spring half price, 3 months"))
            #expect(detail.contains("\"batch\": 2"))
            #expect(detail.contains("offerkit codes generate"))

            let twoOfThree = Self.exampleBatches.prefix(2).map {
                Self.entry($0.name, batch: $0.batch + 1, codes: $0.codes)
            }
            let partial = try await client.send(
                .post, path, json: Self.body(campaign, entries: twoOfThree), key: ServiceFixtures.admin.secret)
            #expect(partial.status == 422, "\(partial.text)")
            #expect(partial.string("field") == "customCodes")
            #expect(partial.string("detail")?.contains("Season pass, 30% off") == true)
        }
    }

    @Test(
        "codes that do not fit the batch are a 422 naming the entry or the code",
        arguments: [
            (["VIPAAAA", "VIPAAAB"], "customCodes[0].codes", "generates 3"),
            (["VIPAAAA", "VIPAAAB", "VIPAAAC", "VIPAAAD"], "customCodes[0].codes", "generates 3"),
            (["VIPAAAA", "XYZAAAB", "VIPAAAC"], "customCodes[0].codes[1]", "prefix"),
            (["VIPAAAA", "VIPAAAB", "VIPAAACD"], "customCodes[0].codes[2]", "length"),
            (["VIPAAA", "VIPAAAB", "VIPAAAC"], "customCodes[0].codes[0]", "length"),
            (["VIPAAAA", "VIPAA0B", "VIPAAAC"], "customCodes[0].codes[1]", "alphabet"),
            (["VIPAAAA", "VIPaaab", "VIPAAAC"], "customCodes[0].codes[1]", "alphabet"),
            (["VIPAAAA", "vipaaab", "VIPAAAC"], "customCodes[0].codes[1]", "prefix"),
            (["VIPAAAA", "VIPAAAB", "VIPAAAA"], "customCodes[0].codes[2]", "is also at customCodes[0].codes[0]"),
            (["VIPAAAA", "VIPABCD", "VIPAAAC"], "customCodes[0].codes[1]", "$.offers[0].customCodes[1].codes[0]"),
            (["VIPAAAA", "VIPAAAB", ""], "customCodes[0].codes[2]", "non-empty"),
            ([], "customCodes[0].codes", "at least 1"),
        ])
    func wrongCodes(_ codes: [String], _ field: String, _ detail: String) async throws {
        let response = try await route.expectInvalidField(
            Self.body(Self.small, entries: [Self.entry("Gem pack launch", batch: 1, codes: codes)]), field: field)
        #expect(response.string("detail")?.contains(detail) == true, "\(response.text)")
    }

    @Test(
        "an entry naming no offer, no batch, a batch of given codes, or a batch twice is a 422 naming it",
        arguments: [
            ([PlanCampaignTests.entry("Gem pack", batch: 1, codes: ["VIPAAAA"])], "customCodes[0].offer"),
            ([PlanCampaignTests.entry("Gem pack launch", batch: 3, codes: ["VIPAAAA"])], "customCodes[0].batch"),
            ([PlanCampaignTests.entry("Gem pack launch", batch: 2, codes: ["VIPABCD"])], "customCodes[0].batch"),
            ([#"{"offer":"Gem pack launch","batch":-1,"codes":["VIPAAAA"]}"#], "customCodes[0].batch"),
            // Batches are numbered from 1: there is no batch 0.
            ([#"{"offer":"Gem pack launch","batch":0,"codes":["VIPAAAA"]}"#], "customCodes[0].batch"),
            ([#"{"offer":"Gem pack launch","batch":1}"#], "customCodes[0].codes"),
            ([#"{"offer":"Gem pack launch","batch":1,"codes":["VIPAAAA"],"count":1}"#], "customCodes[0].count"),
            (
                [
                    PlanCampaignTests.entry("Gem pack launch", batch: 1, codes: ["VIPAAAA", "VIPAAAB", "VIPAAAC"]),
                    PlanCampaignTests.entry("Gem pack launch", batch: 1, codes: ["VIPAAAA", "VIPAAAB", "VIPAAAC"]),
                ], "customCodes[1]"
            ),
        ])
    func wrongEntry(_ entries: [String], _ field: String) async throws {
        try await route.expectInvalidField(Self.body(Self.small, entries: entries), field: field)
    }

    @Test("an invalid campaign is a 422 invalid-campaign whose problems are the library's, relative to campaign")
    func invalidCampaign() async throws {
        let broken = ValidateCampaignTests.exampleText
            .replacingOccurrences(of: #""paymentMode": "PAY_AS_YOU_GO""#, with: #""paymentMode": "ONE_TIME""#)
            .replacingOccurrences(of: #""count": 1000,"#, with: #""count": 0,"#)
        #expect(broken != ValidateCampaignTests.exampleText)
        let response = try await route.post(Self.body(broken))
        #expect(response.status == 422, "\(response.text)")
        #expect(response.headers[.contentType] == "application/problem+json")
        #expect(response.problemSlug == "invalid-campaign")
        #expect(response.string("field") == "campaign")
        #expect(response.string("detail")?.contains("relative to `campaign`") == true)
        let expected = try ValidateCampaignTests.libraryProblems(broken)
        #expect(expected.count >= 2)
        #expect(response.json?["problems"] == .array(expected))
        #expect(response.json?["problemCount"] == .integer(expected.count))
        #expect(response.json?["truncated"] == .bool(false))
        #expect(response.json?["requests"] == nil)
    }

    @Test("more than 1000 problems: invalid-campaign lists the first 1000, with problemCount and truncated")
    func truncatedProblems() async throws {
        let offer = #"{"prices":"# + ValidateCampaignTests.list("{}", CampaignSchemas.maximumPrices) + "}"
        let campaign = #"{"offers":"# + ValidateCampaignTests.list(offer, 10) + "}"
        let expected = try ValidateCampaignTests.libraryProblems(campaign)
        #expect(expected.count > CampaignSchemas.maximumListedProblems)
        let response = try await route.post(Self.body(campaign))
        #expect(response.status == 422, "\(response.text.prefix(500))")
        #expect(response.problemSlug == "invalid-campaign")
        #expect(response.string("detail")?.contains("the first \(CampaignSchemas.maximumListedProblems)") == true)
        #expect(response.json?["problemCount"] == .integer(expected.count))
        #expect(response.json?["truncated"] == .bool(true))
        #expect(response.json?["problems"] == .array(Array(expected.prefix(CampaignSchemas.maximumListedProblems))))
    }

    @Test("a campaign of 340,000 empty offers (1 MiB) is a small 422 naming campaign.offers")
    func hugeOffers() async throws {
        let response = try await route.expectInvalidField(
            Self.body(ValidateCampaignTests.emptyOffers(340_000)), field: "campaign.offers")
        #expect(response.text.utf8.count < 10_000, "\(response.text.utf8.count) bytes")
    }

    @Test(
        "a today that is not a calendar day is a 422 naming today", arguments: ["2027-02-29", "2027-00-10", "tomorrow"])
    func invalidToday(_ today: String) async throws {
        try await route.expectInvalidField(Self.body(Self.small, today: today), field: "today")
    }

    @Test("no API key is a 401; a key without the campaigns scope is a 403")
    func authentication() async throws {
        try await route.expectScopeRequired(
            "campaigns",
            json: Self.body(Self.small, entries: [Self.entry("Gem pack launch", batch: 1, codes: ["VIPAAAA"])]))
    }

    @Test("a cancelled plan (the request timed out) stops with CancellationError")
    func cancellation() async throws {
        let service = try ServiceFixtures.service()
        let entries = Self.exampleBatches.map { Self.entry($0.name, batch: $0.batch + 1, codes: $0.codes) }
        let body = try JSONValue.parse(Array(Self.body(ValidateCampaignTests.exampleText, entries: entries).utf8))
        let request = OperationRequest(
            body: body, query: [:], headers: [:], apiKey: nil, state: service.state,
            logger: Logger(label: "offerkit.tests"))
        let operation = try #require(OfferService.operations.first { $0.id == "planCampaign" })
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await operation.handler(request)
        }
        do {
            _ = try await task.value
            Issue.record("the cancelled plan ran to its end")
        } catch {
            #expect(error is CancellationError, "\(error)")
        }
    }
}
