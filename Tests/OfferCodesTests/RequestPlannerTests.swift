import Foundation
import OfferCodes
import OfferJSON
import Testing

@testable import LedgerTestSupport

@Suite("App Store Connect request planner")
struct RequestPlannerTests {
    let planner = RequestPlanner()

    func plan(_ campaign: Campaign) throws -> [PlannedRequest] {
        try planner.plan(campaign, customCodes: PlannerFixtures.ledgerCodes(campaign))
    }

    func request(_ id: String, of campaign: Campaign) throws -> PlannedRequest {
        try #require(try plan(campaign).first { $0.id == id }, "no request \(id)")
    }

    // MARK: Exact bodies

    @Test func subscriptionOfferRequestIsExact() throws {
        let request = try request("offer-1", of: PlannerFixtures.spring)
        #expect(
            request.jsonValue().text(pretty: true) == """
                {
                  "id": "offer-1",
                  "method": "POST",
                  "path": "/v1/subscriptionOfferCodes",
                  "schema": "SubscriptionOfferCodeCreateRequest",
                  "dependsOn": [],
                  "body": {
                    "data": {
                      "type": "subscriptionOfferCodes",
                      "attributes": {
                        "name": "Spring 2027 half price, 3 months",
                        "customerEligibilities": [
                          "NEW",
                          "EXPIRED"
                        ],
                        "offerEligibility": "STACK_WITH_INTRO_OFFERS",
                        "duration": "ONE_MONTH",
                        "offerMode": "PAY_AS_YOU_GO",
                        "numberOfPeriods": 3,
                        "autoRenewEnabled": true,
                        "targetSubscriptionPlanType": "MONTHLY"
                      },
                      "relationships": {
                        "subscription": {
                          "data": {
                            "type": "subscriptions",
                            "id": "6450000001"
                          }
                        },
                        "prices": {
                          "data": [
                            {
                              "type": "subscriptionOfferCodePrices",
                              "id": "${price-1-USA}"
                            },
                            {
                              "type": "subscriptionOfferCodePrices",
                              "id": "${price-1-JPN}"
                            }
                          ]
                        }
                      }
                    },
                    "included": [
                      {
                        "type": "subscriptionOfferCodePrices",
                        "id": "${price-1-USA}",
                        "relationships": {
                          "territory": {
                            "data": {
                              "type": "territories",
                              "id": "USA"
                            }
                          },
                          "subscriptionPricePoint": {
                            "data": {
                              "type": "subscriptionPricePoints",
                              "id": "eyJzIjoiNjQ1MDAwMDAwMSIsInQiOiJVU0EiLCJwIjoiMTAwMDIifQ"
                            }
                          }
                        }
                      },
                      {
                        "type": "subscriptionOfferCodePrices",
                        "id": "${price-1-JPN}",
                        "relationships": {
                          "territory": {
                            "data": {
                              "type": "territories",
                              "id": "JPN"
                            }
                          },
                          "subscriptionPricePoint": {
                            "data": {
                              "type": "subscriptionPricePoints",
                              "id": "eyJzIjoiNjQ1MDAwMDAwMSIsInQiOiJKUE4iLCJwIjoiMTAwMDIifQ"
                            }
                          }
                        }
                      }
                    ]
                  }
                }
                """)
    }

    @Test func inAppPurchaseOfferRequestIsExact() throws {
        let request = try request("offer-2", of: PlannerFixtures.spring)
        #expect(
            request.jsonValue().text(pretty: true) == """
                {
                  "id": "offer-2",
                  "method": "POST",
                  "path": "/v1/inAppPurchaseOfferCodes",
                  "schema": "InAppPurchaseOfferCodeCreateRequest",
                  "dependsOn": [],
                  "body": {
                    "data": {
                      "type": "inAppPurchaseOfferCodes",
                      "attributes": {
                        "name": "Gem pack launch",
                        "customerEligibilities": [
                          "NON_SPENDER",
                          "CHURNED_SPENDER"
                        ]
                      },
                      "relationships": {
                        "inAppPurchase": {
                          "data": {
                            "type": "inAppPurchases",
                            "id": "6450000009"
                          }
                        },
                        "prices": {
                          "data": [
                            {
                              "type": "inAppPurchaseOfferPrices",
                              "id": "${price-2-USA}"
                            },
                            {
                              "type": "inAppPurchaseOfferPrices",
                              "id": "${price-2-GBR}"
                            }
                          ]
                        }
                      }
                    },
                    "included": [
                      {
                        "type": "inAppPurchaseOfferPrices",
                        "id": "${price-2-USA}",
                        "relationships": {
                          "territory": {
                            "data": {
                              "type": "territories",
                              "id": "USA"
                            }
                          }
                        }
                      },
                      {
                        "type": "inAppPurchaseOfferPrices",
                        "id": "${price-2-GBR}",
                        "relationships": {
                          "territory": {
                            "data": {
                              "type": "territories",
                              "id": "GBR"
                            }
                          },
                          "pricePoint": {
                            "data": {
                              "type": "inAppPurchasePricePoints",
                              "id": "eyJzIjoiNjQ1MDAwMDAwOSIsInQiOiJHQlIiLCJwIjoiMTAwMDEifQ"
                            }
                          }
                        }
                      }
                    ]
                  }
                }
                """)
    }

    @Test func codeRequestsAreExact() throws {
        let requests = try plan(PlannerFixtures.spring)
        let lines = requests.filter { $0.id != "offer-1" && $0.id != "offer-2" }.map { $0.jsonValue().text() }
        #expect(
            lines == [
                #"{"id":"offer-1-one-time-use-1","method":"POST","path":"/v1/subscriptionOfferCodeOneTimeUseCodes","#
                    + #""schema":"SubscriptionOfferCodeOneTimeUseCodeCreateRequest","dependsOn":["offer-1"],"#
                    + #""body":{"data":{"type":"subscriptionOfferCodeOneTimeUseCodes","attributes":{"numberOfCodes":500,"#
                    + #""expirationDate":"2027-06-30","environment":"PRODUCTION"},"relationships":{"offerCode":{"#
                    + #""data":{"type":"subscriptionOfferCodes","id":"<id of offer-1>"}}}}}}"#,
                #"{"id":"offer-1-custom-code-1","method":"POST","path":"/v1/subscriptionOfferCodeCustomCodes","#
                    + #""schema":"SubscriptionOfferCodeCustomCodeCreateRequest","dependsOn":["offer-1"],"#
                    + #""body":{"data":{"type":"subscriptionOfferCodeCustomCodes","attributes":{"customCode":"SPRING27","#
                    + #""numberOfCodes":10000,"expirationDate":"2027-05-31"},"relationships":{"offerCode":{"#
                    + #""data":{"type":"subscriptionOfferCodes","id":"<id of offer-1>"}}}}}}"#,
                #"{"id":"offer-2-one-time-use-1","method":"POST","path":"/v1/inAppPurchaseOfferCodeOneTimeUseCodes","#
                    + #""schema":"InAppPurchaseOfferCodeOneTimeUseCodeCreateRequest","dependsOn":["offer-2"],"#
                    + #""body":{"data":{"type":"inAppPurchaseOfferCodeOneTimeUseCodes","attributes":{"#
                    + #""numberOfCodes":100,"expirationDate":"2027-04-30"},"relationships":{"offerCode":{"#
                    + #""data":{"type":"inAppPurchaseOfferCodes","id":"<id of offer-2>"}}}}}}"#,
                #"{"id":"offer-2-custom-code-1","method":"POST","path":"/v1/inAppPurchaseOfferCodeCustomCodes","#
                    + #""schema":"InAppPurchaseOfferCodeCustomCodeCreateRequest","dependsOn":["offer-2"],"#
                    + #""body":{"data":{"type":"inAppPurchaseOfferCodeCustomCodes","attributes":{"customCode":"GEMS27","#
                    + #""numberOfCodes":50},"relationships":{"offerCode":{"#
                    + #""data":{"type":"inAppPurchaseOfferCodes","id":"<id of offer-2>"}}}}}}"#,
                #"{"id":"offer-2-custom-code-2","method":"POST","path":"/v1/inAppPurchaseOfferCodeCustomCodes","#
                    + #""schema":"InAppPurchaseOfferCodeCustomCodeCreateRequest","dependsOn":["offer-2"],"#
                    + #""body":{"data":{"type":"inAppPurchaseOfferCodeCustomCodes","attributes":{"customCode":"GEMSVIP","#
                    + #""numberOfCodes":50},"relationships":{"offerCode":{"#
                    + #""data":{"type":"inAppPurchaseOfferCodes","id":"<id of offer-2>"}}}}}}"#,
            ])
        let body = try #require(requests.last).bodyBytes
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"data":{"type":"inAppPurchaseOfferCodeCustomCodes","attributes":{"customCode":"GEMSVIP","#
                + #""numberOfCodes":50},"relationships":{"offerCode":{"#
                + #""data":{"type":"inAppPurchaseOfferCodes","id":"<id of offer-2>"}}}}}"#)
    }

    // MARK: Order and placeholders

    @Test func requestsComeInDependencyOrder() throws {
        let requests = try plan(PlannerFixtures.everyKind)
        #expect(
            requests.map(\.id) == [
                "offer-1", "offer-1-one-time-use-1", "offer-1-custom-code-1",
                "offer-2", "offer-2-one-time-use-1", "offer-2-one-time-use-2",
                "offer-2-custom-code-1", "offer-2-custom-code-2", "offer-2-custom-code-3",
                "offer-2-custom-code-4", "offer-2-custom-code-5",
                "offer-3",
                "offer-4", "offer-4-one-time-use-1", "offer-4-custom-code-1",
                "offer-5", "offer-5-one-time-use-1", "offer-5-custom-code-1", "offer-5-custom-code-2",
                "offer-6", "offer-6-custom-code-1",
            ])
        var earlier: Set<String> = []
        for request in requests {
            #expect(request.method == "POST")
            #expect(request.dependsOn.allSatisfy(earlier.contains), "\(request.id) depends on a later request")
            let offerId = String(request.id.split(separator: "-").prefix(2).joined(separator: "-"))
            if request.id == offerId {
                #expect(request.dependsOn.isEmpty)
            } else {
                #expect(request.dependsOn == [offerId])
                let linked = request.body["data"]?["relationships"]?["offerCode"]?["data"]?["id"]
                #expect(linked == .string(RequestPlanner.placeholder(for: offerId)))
            }
            earlier.insert(request.id)
        }
        #expect(RequestPlanner.placeholder(for: "offer-1") == "<id of offer-1>")
    }

    @Test func customCodesAreNumberedAcrossBatchesInCampaignOrder() throws {
        let requests = try plan(PlannerFixtures.everyKind).filter { $0.id.hasPrefix("offer-2-custom-code-") }
        let generated = try PlannerFixtures.ledgerCodes(PlannerFixtures.everyKind)(1, 0)
        let codes = requests.map { $0.body["data"]?["attributes"]?["customCode"] }
        #expect(codes == (generated + ["HALF3", "HALFOFF"]).map { .string($0) })
        let limits = requests.map { $0.body["data"]?["attributes"]?["numberOfCodes"] }
        #expect(limits == [1, 1, 1, 1000, 1000].map { .integer($0) })
        let expiries = requests.map { $0.body["data"]?["attributes"]?["expirationDate"] }
        #expect(expiries == [.string("2027-12-31"), .string("2027-12-31"), .string("2027-12-31"), nil, nil])
    }

    // MARK: Attributes

    @Test func optionalMembersAreOmittedNeverNull() throws {
        let requests = try plan(PlannerFixtures.everyKind)
        for request in requests { #expect(!request.body.containsNull, "\(request.id) has a null member") }
        let attributes = { (id: String) in requests.first { $0.id == id }?.body["data"]?["attributes"] }
        // FREE_TRIAL and PAY_UP_FRONT without numberOfPeriods: 1; no autoRenewEnabled or plan type unless set.
        #expect(attributes("offer-1")?["numberOfPeriods"] == .integer(1))
        #expect(attributes("offer-1")?.keys.contains("autoRenewEnabled") == false)
        #expect(attributes("offer-1")?.keys.contains("targetSubscriptionPlanType") == false)
        #expect(attributes("offer-3")?["numberOfPeriods"] == .integer(1))
        #expect(attributes("offer-3")?["autoRenewEnabled"] == .bool(true))
        #expect(attributes("offer-3")?["targetSubscriptionPlanType"] == .string("UPFRONT"))
        #expect(attributes("offer-2")?["autoRenewEnabled"] == .bool(false))
        // In-app purchase offers have only a name and eligibilities.
        #expect(attributes("offer-4")?.keys == ["name", "customerEligibilities"])
        // Environment only when the campaign sets it.
        #expect(attributes("offer-1-one-time-use-1")?["environment"] == .string("SANDBOX"))
        #expect(attributes("offer-2-one-time-use-1")?["environment"] == .string("PRODUCTION"))
        #expect(attributes("offer-2-one-time-use-2")?.keys == ["numberOfCodes", "expirationDate"])
        #expect(attributes("offer-5-one-time-use-1")?["environment"] == .string("SANDBOX"))
        // Custom-code expiry only when set.
        #expect(attributes("offer-1-custom-code-1")?.keys == ["customCode", "numberOfCodes"])
        #expect(attributes("offer-6-custom-code-1")?["expirationDate"] == .string("2027-08-31"))
    }

    @Test func freeEntriesAndFreeTrialsHaveNoPricePoint() throws {
        var campaign = PlannerFixtures.everyKind
        // A price point on a FREE_TRIAL entry is rejected by Apple (409): the planner leaves it out.
        campaign.offers[0].prices[1].pricePoint = "eyJwIjoiSlBOLTAifQ"
        let requests = try plan(campaign)
        func pricesRelationships(_ id: String) -> [[String]] {
            guard case .array(let included)? = requests.first(where: { $0.id == id })?.body["included"] else {
                return []
            }
            return included.map { $0["relationships"]?.keys ?? [] }
        }
        #expect(pricesRelationships("offer-1") == [["territory"], ["territory"]])
        #expect(
            pricesRelationships("offer-2") == [
                ["territory", "subscriptionPricePoint"], ["territory", "subscriptionPricePoint"],
            ])
        #expect(pricesRelationships("offer-4") == [["territory"], ["territory", "pricePoint"]])
        #expect(pricesRelationships("offer-6") == [["territory"]])
    }

    // MARK: Custom codes from the caller, errors

    @Test func generatedCodesComeFromTheCallerGivenCodesFromTheCampaign() throws {
        var asked: [[Int]] = []
        let ledger = PlannerFixtures.ledgerCodes(PlannerFixtures.everyKind)
        _ = try planner.plan(PlannerFixtures.everyKind) { offer, batch in
            asked.append([offer, batch])
            return try ledger(offer, batch)
        }
        #expect(asked == [[1, 0], [4, 0]])
    }

    @Test func wrongNumberOfGeneratedCodesIsAnError() throws {
        let error = #expect(throws: RequestPlanningError.self) {
            try planner.plan(PlannerFixtures.everyKind) { _, _ in ["ONLYONE"] }
        }
        #expect(
            error
                == .generatedCodeCount(
                    offer: 2, referenceName: "Half price, 3 months", batch: 1, expected: 3, supplied: 1))
        let message = error?.localizedDescription ?? ""
        #expect(message.contains("offer 2") && message.contains("3 codes") && message.contains("1 were supplied"))
        // Batches are numbered from 1 on every surface: the offer's first custom-code batch is batch 1.
        #expect(message.contains("custom-code batch 1 generates"), "\(message)")
        #expect(throws: PlannerFixtures.LedgerLookupError(offerIndex: 1, batchIndex: 0)) {
            try planner.plan(PlannerFixtures.everyKind) { offer, batch in
                throw PlannerFixtures.LedgerLookupError(offerIndex: offer, batchIndex: batch)
            }
        }
    }

    @Test func incompleteSubscriptionOffersAreErrorsNamingTheField() throws {
        var campaign = PlannerFixtures.spring
        campaign.offers[0].duration = nil
        let missing = #expect(throws: RequestPlanningError.self) { try plan(campaign) }
        #expect(
            missing == .missingField(offer: 1, referenceName: "Spring 2027 half price, 3 months", field: "duration"))
        #expect(missing?.localizedDescription.contains("`duration` is required") == true)

        campaign = PlannerFixtures.spring
        campaign.offers[0].numberOfPeriods = nil
        #expect(
            throws: RequestPlanningError.missingField(
                offer: 1, referenceName: campaign.offers[0].referenceName, field: "numberOfPeriods")
        ) {
            try plan(campaign)
        }

        campaign = PlannerFixtures.spring
        campaign.offers[1].paymentMode = .freeTrial
        let mode = #expect(throws: RequestPlanningError.self) { try plan(campaign) }
        #expect(mode?.localizedDescription.contains("FREE_TRIAL is not available for a consumable") == true)
    }

    // MARK: Determinism and the document

    @Test func plansAreDeterministic() throws {
        let campaign = PlannerFixtures.everyKind
        let first = RequestPlanner.document(campaign: campaign, requests: try plan(campaign)).serialized(pretty: true)
        let second = RequestPlanner.document(campaign: campaign, requests: try plan(campaign)).serialized(pretty: true)
        #expect(first == second)
        var streamed: [PlannedRequest] = []
        try RequestPlanner().forEachRequest(in: campaign, customCodes: PlannerFixtures.ledgerCodes(campaign)) {
            streamed.append($0)
        }
        #expect(streamed == (try plan(campaign)))
    }

    @Test func documentNamesTheCampaignTheAppAndThePlaceholders() throws {
        let campaign = PlannerFixtures.spring
        let requests = try plan(campaign)
        let document = RequestPlanner.document(campaign: campaign, requests: requests)
        #expect(document.keys == ["campaign", "app", "placeholders", "requests"])
        #expect(document["campaign"] == .string("spring-2027"))
        #expect(
            document["app"]
                == .object([("bundleId", .string("com.example.offerkit.demo")), ("appAppleId", .string("1234567890"))]))
        #expect(document["placeholders"] == .string(RequestPlanner.placeholderExplanation))
        #expect(RequestPlanner.placeholderExplanation.contains("<id of R>"))
        #expect(document["requests"] == .array(requests.map { $0.jsonValue() }))
        let reparsed = try JSONValue.parse(document.serialized(pretty: true))
        #expect(reparsed == document)
    }

    // MARK: Apple's schemas, checked by Python's jsonschema

    @Test(
        "Every body of every product type and payment mode is valid against Apple's schemas",
        .enabled(PythonTool.reason) { await PythonTool.available || PythonTool.isCI })
    func everyBodyIsValidAgainstApplesSchemas() async throws {
        let directory = try PythonTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let everyKind = try plan(PlannerFixtures.everyKind)
        let spring = try plan(PlannerFixtures.spring)
        let documentURL = directory.appendingPathComponent("every-kind.json")
        try Data(RequestPlanner.document(campaign: PlannerFixtures.everyKind, requests: everyKind).serialized())
            .write(to: documentURL)
        let arrayURL = directory.appendingPathComponent("spring.json")
        try Data(JSONValue.array(spring.map { $0.jsonValue() }).serialized(pretty: true)).write(to: arrayURL)

        let result = try await PythonTool.validate(planFiles: [documentURL, arrayURL])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let count = everyKind.count + spring.count
        #expect(result.stdout.contains("\(count) requests valid against App Store Connect API 4.4.1 schemas"))
        #expect(!result.stdout.contains("FAIL"))
    }

    @Test(
        "The schema check rejects broken bodies, misspelled optional members included",
        .enabled(PythonTool.reason) { await PythonTool.available || PythonTool.isCI })
    func schemaCheckRejectsBrokenBodies() async throws {
        let requests = try plan(PlannerFixtures.spring)
        let offer = try #require(requests.first { $0.id == "offer-1" })
        let oneTimeUse = try #require(requests.first { $0.id == "offer-1-one-time-use-1" })
        let customCode = try #require(requests.first { $0.id == "offer-1-custom-code-1" })
        func broken(_ base: PlannedRequest, _ id: String, at path: [String], _ edit: (inout JSONMembers) -> Void)
            -> PlannedRequest
        {
            var request = base
            request.id = id
            request.body = base.body.editingObject(at: path[...], edit)
            return request
        }
        let attributes = ["data", "attributes"]
        let cases: [(request: PlannedRequest, expected: String)] = [
            (
                broken(offer, "wrong-enum", at: attributes) { $0.set("offerMode", .string("HALF_PRICE")) },
                "wrong-enum $.data.attributes.offerMode: 'HALF_PRICE' is not one of"
            ),
            (
                broken(offer, "misspelled", at: attributes) { $0.rename("autoRenewEnabled", to: "autoRenewEnable") },
                "misspelled $.data.attributes: Additional properties are not allowed ('autoRenewEnable' was unexpected)"
            ),
            (
                broken(offer, "missing", at: attributes) { $0.removeAll { $0.key == "name" } },
                "missing $.data.attributes: 'name' is a required property"
            ),
            (
                broken(offer, "wrong-type", at: ["data"]) { $0.set("type", .string("inAppPurchaseOfferCodes")) },
                "wrong-type $.data.type: 'inAppPurchaseOfferCodes' is not one of"
            ),
            (
                broken(oneTimeUse, "bad-date", at: attributes) { $0.set("expirationDate", .string("2027-6-30")) },
                "bad-date $.data.attributes.expirationDate: '2027-6-30' is not a 'date'"
            ),
            (
                broken(offer, "unpriced", at: []) { $0.set("included", .array([])) },
                "unpriced $.data.relationships.prices.data[0].id: '${price-1-USA}' appears 0 times in included"
            ),
            (
                broken(customCode, "undeclared-dependency", at: []) { _ in }.withDependsOn([]),
                "undeclared-dependency $.data.relationships.offerCode.data.id: placeholder names 'offer-1', which dependsOn does not list"
            ),
            (
                broken(customCode, "wrong-path", at: []) { _ in }.withPath("/v1/subscriptionOfferCodes"),
                "wrong-path $.path: POST /v1/subscriptionOfferCodes does not take SubscriptionOfferCodeCustomCodeCreateRequest"
            ),
        ]
        let directory = try PythonTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("broken.json")
        try Data(JSONValue.array(([offer] + cases.map(\.request)).map { $0.jsonValue() }).serialized()).write(to: url)

        let result = try await PythonTool.validate(planFiles: [url])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let failures = result.stdout.split(separator: "\n").filter { $0.hasPrefix("FAIL ") }
        for (request, expected) in cases {
            #expect(failures.contains { $0.contains(expected) }, "\(request.id): \(result.stdout)")
        }
        #expect(!failures.contains { $0.contains(" offer-1 ") }, "the unchanged request failed: \(result.stdout)")
        #expect(failures.contains { $0.contains("misspelled") && $0.contains("[strict") })
        #expect(result.stdout.contains("\(cases.count) of \(cases.count + 1) requests failed"))
    }
}

typealias JSONMembers = [(key: String, value: JSONValue)]

extension JSONMembers {
    mutating func set(_ key: String, _ value: JSONValue) {
        if let index = firstIndex(where: { $0.key == key }) { self[index].value = value } else { append((key, value)) }
    }

    mutating func rename(_ key: String, to newKey: String) {
        if let index = firstIndex(where: { $0.key == key }) { self[index].key = newKey }
    }
}

extension JSONValue {
    /// A copy in which the object at `path` (member names from the root) is changed by `edit`.
    func editingObject(at path: ArraySlice<String>, _ edit: (inout JSONMembers) -> Void) -> JSONValue {
        guard case .object(var members) = self else { return self }
        if let first = path.first {
            members.set(first, (self[first] ?? .object([])).editingObject(at: path.dropFirst(), edit))
        } else {
            edit(&members)
        }
        return .object(members)
    }

    /// Whether a `null` appears anywhere in the value.
    fileprivate var containsNull: Bool {
        switch self {
        case .null: true
        case .object(let members): members.contains { $0.value.containsNull }
        case .array(let items): items.contains { $0.containsNull }
        case .string, .number, .bool: false
        }
    }
}

extension PlannedRequest {
    fileprivate func withDependsOn(_ ids: [String]) -> PlannedRequest {
        var copy = self
        copy.dependsOn = ids
        return copy
    }

    fileprivate func withPath(_ path: String) -> PlannedRequest {
        var copy = self
        copy.path = path
        return copy
    }
}
