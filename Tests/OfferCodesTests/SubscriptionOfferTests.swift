import Foundation
import OfferCodes
import OfferJSON
import Testing

@testable import LedgerTestSupport

/// Promotional, introductory and win-back offers in a campaign: read, validated (every problem at
/// once, with paths), customer prices resolved to price points, and planned into create requests
/// that Apple's App Store Connect API 4.4.1 schemas accept (checked by Python's `jsonschema`).
@Suite("Promotional, introductory and win-back offers")
struct SubscriptionOfferTests {
    /// Validation's today: 2027-03-15.
    static let today = CampaignFixtures.today

    static let monthly: JSONValue = .object([
        ("id", .string("6450000001")), ("productId", .string("com.example.offerkit.monthly")),
        ("period", .string("ONE_MONTH")),
    ])

    static func price(_ territory: String, _ key: String, _ value: JSONValue) -> JSONValue {
        .object([("territory", .string(territory)), (key, value)])
    }

    static let promotional: JSONValue = .object([
        ("referenceName", .string("Come back for 3 months")), ("offerIdentifier", .string("comeback_monthly_3")),
        ("subscription", monthly), ("paymentMode", .string("PAY_AS_YOU_GO")), ("duration", .string("ONE_MONTH")),
        ("numberOfPeriods", .integer(3)),
        (
            "prices",
            .array([price("USA", "pricePoint", .string("pp-usa-199")), price("JPN", "customerPrice", .string("300"))])
        ),
    ])

    static let introductory: JSONValue = .object([
        ("subscription", monthly), ("paymentMode", .string("FREE_TRIAL")), ("duration", .string("ONE_WEEK")),
        ("startDate", .string("2027-04-01")),
        ("prices", .array([price("USA", "free", .bool(true)), price("GBR", "free", .bool(true))])),
    ])

    static let winBack: JSONValue = .object([
        ("referenceName", .string("Win back 2027")), ("offerIdentifier", .string("winback_2027")),
        ("subscription", monthly), ("paymentMode", .string("PAY_UP_FRONT")), ("duration", .string("THREE_MONTHS")),
        (
            "customerEligibility",
            .object([
                ("paidSubscriptionDurationInMonths", .integer(6)),
                ("timeSinceLastSubscribedInMonths", .object([("minimum", .integer(1)), ("maximum", .integer(12))])),
                ("waitBetweenOffersInMonths", .integer(6)),
            ])
        ),
        ("startDate", .string("2027-04-01")), ("endDate", .string("2027-06-30")), ("priority", .string("HIGH")),
        ("promotionIntent", .string("NOT_PROMOTED")),
        ("prices", .array([price("USA", "customerPrice", .string("4.99"))])),
    ])

    /// A campaign with one offer of each kind and no offer codes.
    static func campaignJSON(
        promotional: [JSONValue] = [promotional], introductory: [JSONValue] = [introductory],
        winBack: [JSONValue] = [winBack]
    ) -> JSONValue {
        .object([
            ("name", .string("offers-2027")),
            (
                "app",
                .object([("bundleId", .string("com.example.offerkit.demo")), ("appAppleId", .string("1234567890"))])
            ),
            ("promotionalOffers", .array(promotional)), ("introductoryOffers", .array(introductory)),
            ("winBackOffers", .array(winBack)),
        ])
    }

    static func validate(_ document: JSONValue) throws -> ValidationReport {
        try CampaignValidator(today: today).validate(json: document.serialized(pretty: true))
    }

    /// App Store Connect's price points as the stand-in's catalog would list them.
    static let pricePoints: [PricePointQuery: [PricePoint]] = [
        PricePointQuery(product: .subscription(id: "6450000001"), territory: "USA"): [
            PricePoint(id: "pp-usa-399", territory: "USA", customerPrice: "3.99"),
            PricePoint(id: "pp-usa-499", territory: "USA", customerPrice: "4.99"),
            PricePoint(id: "pp-usa-599", territory: "USA", customerPrice: "5.99"),
        ],
        PricePointQuery(product: .subscription(id: "6450000001"), territory: "JPN"): [
            PricePoint(id: "pp-jpn-300", territory: "JPN", customerPrice: "300.0"),
            PricePoint(id: "pp-jpn-480", territory: "JPN", customerPrice: "480.0"),
        ],
    ]

    static let resolution = PriceResolution { query in SubscriptionOfferTests.pricePoints[query] ?? [] }

    /// The example campaign, validated and its customer prices resolved.
    static func resolvedCampaign() async throws -> Campaign {
        let report = try validate(campaignJSON())
        #expect(report.problems.isEmpty, "\(report.problems)")
        return try await resolution.resolve(try #require(report.campaign))
    }

    /// Python's `jsonschema` on `requests` (Tests/Interop/validate_asc_requests.py).
    static func validateWithPython(_ requests: [PlannedRequest]) async throws -> PythonTool.Result {
        let directory = try PythonTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("requests.json")
        try Data(JSONValue.array(requests.map { $0.jsonValue() }).serialized(pretty: true)).write(to: url)
        return try await PythonTool.validate(planFiles: [url])
    }

    // MARK: Reading and validation

    @Test func readsEveryKindOfOffer() throws {
        let report = try Self.validate(Self.campaignJSON())
        #expect(report.problems.isEmpty, "\(report.problems)")
        let campaign = try #require(report.campaign)
        #expect(campaign.offers.isEmpty)
        let promotional = try #require(campaign.promotionalOffers.first)
        #expect(promotional.offerIdentifier == "comeback_monthly_3")
        #expect(
            promotional.terms.subscription
                == SubscriptionReference(
                    id: "6450000001", productId: "com.example.offerkit.monthly", period: .oneMonth))
        #expect(promotional.terms.numberOfPeriods == 3)
        #expect(promotional.terms.prices[1] == TerritoryPrice(territory: "JPN", customerPrice: CustomerPrice("300")!))
        let introductory = try #require(campaign.introductoryOffers.first)
        #expect(introductory.startDate == CalendarDate(year: 2027, month: 4, day: 1))
        #expect(introductory.endDate == nil)
        #expect(introductory.terms.prices.allSatisfy { $0.isFree })
        let winBack = try #require(campaign.winBackOffers.first)
        #expect(
            winBack.customerEligibility
                == WinBackEligibility(
                    paidSubscriptionDurationInMonths: 6, timeSinceLastSubscribedInMonths: 1...12,
                    waitBetweenOffersInMonths: 6))
        #expect(winBack.priority == .high)
        #expect(winBack.promotionIntent == .notPromoted)
    }

    @Test func reportsEveryProblemAtOnceWithPaths() throws {
        let promotional = CampaignFixtures.changing(
            Self.promotional,
            [
                "offerIdentifier": .string("comeback monthly!"), "paymentMode": .string("ONE_TIME"),
                "numberOfPeriods": .integer(13),
            ])
        let duplicate = CampaignFixtures.changing(
            Self.promotional,
            [
                "referenceName": .string("Another"), "offerIdentifier": .string("WINBACK_2027"),
                "duration": .string("ONE_WEEK"),
            ])
        let introductory = CampaignFixtures.changing(
            Self.introductory,
            [
                "startDate": .string("2027-03-01"),
                "prices": .array([
                    Self.price("USA", "pricePoint", .string("pp-usa-499")), Self.price("usa", "free", .bool(true)),
                ]),
            ])
        let winBack = CampaignFixtures.changing(
            Self.winBack,
            [
                "referenceName": .string("Win-back!"), "duration": .string("ONE_WEEK"),
                "customerEligibility": .object([
                    ("paidSubscriptionDurationInMonths", .integer(30)),
                    (
                        "timeSinceLastSubscribedInMonths",
                        .object([("minimum", .integer(0)), ("maximum", .integer(25))])
                    ),
                    ("waitBetweenOffersInMonths", .integer(1)),
                ]),
                "startDate": .string("2027-03-15"), "endDate": .string("2027-03-16"), "priority": .string("URGENT"),
                "prices": .array([Self.price("USA", "customerPrice", .string("4.999.0"))]),
            ])
        let report = try Self.validate(
            Self.campaignJSON(promotional: [promotional, duplicate], introductory: [introductory], winBack: [winBack]))
        // `priority` URGENT is a shape problem, reported with the rest (checked below).
        let found = Set(report.problems.filter { !$0.path.hasSuffix(".priority") }.map { "\($0.rule) \($0.path)" })
        let expected: Set<String> = [
            "offer-identifier $.promotionalOffers[0].offerIdentifier",
            "payment-mode-for-offer-kind $.promotionalOffers[0].paymentMode",
            "duration-for-subscription-period $.promotionalOffers[1].duration",
            "duplicate-offer-identifier $.winBackOffers[0].offerIdentifier",
            "start-date $.introductoryOffers[0].startDate",
            "free-trial-price-point $.introductoryOffers[0].prices[0].pricePoint",
            "territory-code $.introductoryOffers[0].prices[1].territory",
            "reference-name $.winBackOffers[0].referenceName",
            "duration-for-payment-mode $.winBackOffers[0].duration",
            "win-back-paid-duration $.winBackOffers[0].customerEligibility.paidSubscriptionDurationInMonths",
            "win-back-time-since-last-subscribed "
                + "$.winBackOffers[0].customerEligibility.timeSinceLastSubscribedInMonths.minimum",
            "win-back-time-since-last-subscribed "
                + "$.winBackOffers[0].customerEligibility.timeSinceLastSubscribedInMonths.maximum",
            "win-back-wait-between-offers $.winBackOffers[0].customerEligibility.waitBetweenOffersInMonths",
            "start-date $.winBackOffers[0].startDate",
            "end-date $.winBackOffers[0].endDate",
            "customer-price $.winBackOffers[0].prices[0].customerPrice",
        ]
        #expect(found.subtracting(expected).isEmpty, "unexpected: \(found.subtracting(expected).sorted())")
        #expect(expected.subtracting(found).isEmpty, "missing: \(expected.subtracting(found).sorted())")
        #expect(report.problems.contains { $0.path == "$.winBackOffers[0].priority" })
        #expect(report.campaign == nil)
        for problem in report.problems {
            #expect(!problem.message.isEmpty && problem.allowed != nil, "\(problem)")
        }
    }

    @Test func appliesApplesLimitsAcrossOffers() throws {
        let promotional = (0..<11).map { number in
            CampaignFixtures.changing(
                Self.promotional,
                ["referenceName": .string("Offer \(number)"), "offerIdentifier": .string("offer_\(number)")])
        }
        let overlapping = CampaignFixtures.changing(Self.introductory, ["startDate": .string("2027-05-01")])
        let report = try Self.validate(
            Self.campaignJSON(promotional: promotional, introductory: [Self.introductory, overlapping]))
        let found = report.problems.map { "\($0.rule) \($0.path)" }
        #expect(
            found.sorted() == [
                "introductory-offer-overlap $.introductoryOffers[1].prices[0].territory",
                "introductory-offer-overlap $.introductoryOffers[1].prices[1].territory",
                "promotional-offers-limit $.promotionalOffers",
            ], "\(report.problems)")
    }

    @Test func aCampaignNeedsOffersOfSomeKind() throws {
        let report = try Self.validate(Self.campaignJSON(promotional: [], introductory: [], winBack: []))
        #expect(report.problems.map(\.rule) == ["offers-not-empty"], "\(report.problems)")
    }

    @Test func refusesASubscriptionIdThatIsNotOnePathSegment() throws {
        let subscription = CampaignFixtures.changing(Self.monthly, ["id": .string("6450000001/promotionalOffers")])
        let offer = CampaignFixtures.changing(Self.promotional, ["subscription": subscription])
        let report = try Self.validate(Self.campaignJSON(promotional: [offer], introductory: [], winBack: []))
        _ = CampaignFixtures.expectOnly(
            report.problems, rule: "connect-id", path: "$.promotionalOffers[0].subscription.id",
            message: ["\"6450000001/promotionalOffers\" is not an App Store Connect id"], allowed: "'/'")
    }

    // MARK: Customer prices

    @Test func resolvesCustomerPricesToPricePoints() async throws {
        let campaign = try await Self.resolvedCampaign()
        #expect(campaign.promotionalOffers[0].terms.prices.map(\.pricePoint) == ["pp-usa-199", "pp-jpn-300"])
        #expect(campaign.winBackOffers[0].terms.prices.map(\.pricePoint) == ["pp-usa-499"])
        #expect(campaign.winBackOffers[0].terms.prices[0].customerPrice?.text == "4.99")
        #expect(!campaign.winBackOffers[0].terms.prices[0].needsPricePoint)
    }

    @Test func looksEachProductAndTerritoryUpOnce() async throws {
        let queries = QueryLog()
        let resolution = PriceResolution { query in
            await queries.add(query)
            return Self.pricePoints[query] ?? []
        }
        var campaign = try #require(try Self.validate(Self.campaignJSON()).campaign)
        campaign.promotionalOffers[0].terms.prices[0] = TerritoryPrice(
            territory: "USA", customerPrice: CustomerPrice("4.990")!)
        let resolved = try await resolution.resolve(campaign)
        #expect(resolved.promotionalOffers[0].terms.prices[0].pricePoint == "pp-usa-499")
        #expect(await queries.all.count == 2)
    }

    @Test func recordedPricePointsAreUsedAndOnlyTheOthersLookedUp() async throws {
        let queries = QueryLog()
        let campaign = try #require(try Self.validate(Self.campaignJSON()).campaign)
        let open = PriceResolution.unresolved(in: campaign)
        #expect(open.map(\.path).contains("$.winBackOffers[0].prices[0].customerPrice"))
        // USA 4.99 was recorded with an id the list no longer has: the recorded one is kept.
        let usa = PricePointQuery(product: .subscription(id: "6450000001"), territory: "USA")
        let recorded = [ResolvedPrice(query: usa, customerPrice: "4.99", pricePoint: "pp-recorded")]
        let resolution = PriceResolution(recorded: recorded, maximumConcurrentLookups: 4) { query in
            await queries.add(query)
            return Self.pricePoints[query] ?? []
        }
        let resolved = try await resolution.resolution(of: campaign)
        #expect(resolved.campaign.winBackOffers[0].terms.prices[0].pricePoint == "pp-recorded")
        #expect(PriceResolution.unresolved(in: resolved.campaign).isEmpty)
        #expect(!resolved.lookedUp.contains { $0.pricePoint == "pp-recorded" })
        #expect(Set(resolved.lookedUp).count == resolved.lookedUp.count)
        // Applying what was looked up and recorded resolves the campaign the same way, with no look-up.
        let again = PriceResolution.applying(recorded + resolved.lookedUp, to: campaign)
        #expect(again == resolved.campaign)
        #expect(Set(await queries.all).count == (await queries.all).count)
    }

    @Test func lookUpsRunAtMostTheGivenNumberAtOnce() async throws {
        let gauge = ConcurrencyGauge()
        var campaign = try #require(try Self.validate(Self.campaignJSON()).campaign)
        let territories = ["USA", "JPN", "GBR", "FRA", "DEU", "CAN", "AUS", "BRA"]
        campaign.promotionalOffers[0].terms.prices = territories.map {
            TerritoryPrice(territory: $0, customerPrice: CustomerPrice("1.49")!)
        }
        let resolution = PriceResolution(maximumConcurrentLookups: 3) { query in
            await gauge.enter()
            try await Task.sleep(for: .milliseconds(20))
            await gauge.leave()
            return (Self.pricePoints[query] ?? [])
                + [PricePoint(id: "pp-\(query.territory)", territory: query.territory, customerPrice: "1.49")]
        }
        let resolved = try await resolution.resolution(of: campaign)
        #expect(resolved.campaign.promotionalOffers[0].terms.prices.map(\.pricePoint) == territories.map { "pp-\($0)" })
        #expect(await gauge.peak <= 3)
    }

    @Test func reportsEveryPriceWithoutAPricePoint() async throws {
        var campaign = try #require(try Self.validate(Self.campaignJSON()).campaign)
        campaign.promotionalOffers[0].terms.prices[1] = TerritoryPrice(
            territory: "JPN", customerPrice: CustomerPrice("350")!)
        campaign.winBackOffers[0].terms.prices[0] = TerritoryPrice(
            territory: "USA", customerPrice: CustomerPrice("4.98")!)
        let error = await #expect(throws: CampaignProblems.self) { try await Self.resolution.resolve(campaign) }
        let problems = try #require(error?.problems)
        #expect(
            problems.map(\.path) == [
                "$.promotionalOffers[0].prices[1].customerPrice", "$.winBackOffers[0].prices[0].customerPrice",
            ])
        #expect(problems.allSatisfy { $0.rule == "customer-price-not-found" })
        #expect(
            problems[0].message.contains(
                "subscription 6450000001 in JPN has no price point with the customer price 350"))
        #expect(problems[0].message.contains("the nearest are 300.0, 480.0"), "\(problems[0].message)")
    }

    @Test func refusesToPlanAPriceNotLookedUp() throws {
        let campaign = try #require(try Self.validate(Self.campaignJSON()).campaign)
        #expect(throws: RequestPlanningError.self) { try RequestPlanner().planSubscriptionOffers(campaign) }
    }

    @Test func theRefusalNamesTheLookUpThatFindsTheId() {
        for (type, flag) in [
            (ProductType.autoRenewableSubscription, "--subscription"), (.consumable, "--in-app-purchase"),
            (.nonConsumable, "--in-app-purchase"), (.nonRenewingSubscription, "--in-app-purchase"),
        ] {
            let product = ProductReference(id: "6450000009", productId: "com.example.offerkit.gems", type: type)
            let error = RequestPlanningError.pricePointNotLookedUp(
                offer: "offer 1 (\"Gems\")", product: PricePointQuery.Product(product), territory: "JPN",
                customerPrice: "480")
            #expect(
                error.localizedDescription.contains(
                    "write its price point id instead, as {\"territory\": \"JPN\", \"pricePoint\": \"ID\"}: "
                        + "`offerkit codes lookup price-points \(flag) 6450000009 --territory JPN --customer-price 480` "
                        + "prints it (with your App Store Connect API key's options"), "\(error.localizedDescription)")
        }
        // Campaign text that is not a plain id never reaches the printed command.
        for id in ["6450000001 --api-base-url https://elsewhere.example", "1`id`", "1\nofferkit: x", "1'2", ""] {
            let product = PricePointQuery.Product.subscription(id: id)
            #expect(product.lookupFlag == "--subscription ID", "\(id.debugDescription)")
        }
        #expect(
            PricePointQuery.Product.inAppPurchase(id: "com.example_1-2").lookupFlag
                == "--in-app-purchase com.example_1-2")
    }

    // MARK: Planning

    @Test func plansOneRequestPerOfferAndIntroductoryTerritory() async throws {
        let requests = try RequestPlanner().planSubscriptionOffers(try await Self.resolvedCampaign())
        #expect(
            requests.map { "\($0.id) \($0.method) \($0.path) \($0.schema)" } == [
                "promotional-offer-1 POST /v1/subscriptionPromotionalOffers SubscriptionPromotionalOfferCreateRequest",
                "introductory-offer-1-USA POST /v1/subscriptionIntroductoryOffers "
                    + "SubscriptionIntroductoryOfferCreateRequest",
                "introductory-offer-1-GBR POST /v1/subscriptionIntroductoryOffers "
                    + "SubscriptionIntroductoryOfferCreateRequest",
                "win-back-offer-1 POST /v1/winBackOffers WinBackOfferCreateRequest",
            ])
        #expect(requests.allSatisfy { $0.dependsOn.isEmpty })
        // A promotional or win-back offer's key is its subscription's product ID: what the ledger knows it by.
        #expect(
            requests.map(\.subject.key) == [
                "com.example.offerkit.monthly", "USA 2027-04-01", "GBR 2027-04-01", "com.example.offerkit.monthly",
            ])
        #expect(
            requests.map(\.subject.offerKind) == [
                .promotionalOffer, .introductoryOffer, .introductoryOffer, .winBackOffer,
            ])
        #expect(
            requests.map(\.resourceType) == [
                "subscriptionPromotionalOffers", "subscriptionIntroductoryOffers", "subscriptionIntroductoryOffers",
                "winBackOffers",
            ])
    }

    @Test func plansTheBodiesAppleDocuments() async throws {
        let requests = try RequestPlanner().planSubscriptionOffers(try await Self.resolvedCampaign())
        let promotional = requests[0].body.text()
        #expect(
            promotional.hasPrefix(
                #"{"data":{"type":"subscriptionPromotionalOffers","attributes":{"name":"Come back for 3 months","#
                    + #""offerCode":"comeback_monthly_3","duration":"ONE_MONTH","offerMode":"PAY_AS_YOU_GO","#
                    + #""numberOfPeriods":3},"relationships":{"subscription":{"data":{"type":"subscriptions","#
                    + #""id":"6450000001"}}"#), "\(promotional)")
        #expect(
            promotional.contains(
                #""subscriptionPricePoint":{"data":{"type":"subscriptionPricePoints","id":"pp-jpn-300"}}"#))
        // A free trial names no price point; its territory is a relationship.
        let introductory = requests[1].body.text()
        #expect(
            introductory == #"{"data":{"type":"subscriptionIntroductoryOffers","attributes":{"startDate":"2027-04-01","#
                + #""duration":"ONE_WEEK","offerMode":"FREE_TRIAL","numberOfPeriods":1},"relationships":{"#
                + #""subscription":{"data":{"type":"subscriptions","id":"6450000001"}},"territory":{"data":{"#
                + #""type":"territories","id":"USA"}}}}}"#, "\(introductory)")
        let winBack = requests[3].body.text()
        #expect(
            winBack.contains(
                #""periodCount":1,"customerEligibilityPaidSubscriptionDurationInMonths":6,"#
                    + #""customerEligibilityTimeSinceLastSubscribedInMonths":{"minimum":1,"maximum":12},"#
                    + #""customerEligibilityWaitBetweenOffersInMonths":6,"startDate":"2027-04-01","#
                    + #""endDate":"2027-06-30","priority":"HIGH","promotionIntent":"NOT_PROMOTED"}"#), "\(winBack)")
    }

    @Test(
        "Every planned promotional, introductory and win-back body is valid against Apple's schemas",
        .enabled(PythonTool.reason) { await PythonTool.available || PythonTool.isCI })
    func everyBodyIsValidAgainstApplesSchemas() async throws {
        var campaign = try await Self.resolvedCampaign()
        // Every optional member too: a plan type, an end date for the introductory offer, no wait.
        campaign.promotionalOffers[0].terms.targetSubscriptionPlanType = .monthly
        campaign.introductoryOffers[0].endDate = CalendarDate(year: 2027, month: 5, day: 1)
        campaign.winBackOffers.append(campaign.winBackOffers[0])
        campaign.winBackOffers[1].customerEligibility.waitBetweenOffersInMonths = nil
        campaign.winBackOffers[1].promotionIntent = nil
        campaign.winBackOffers[1].endDate = nil
        campaign.winBackOffers[1].terms.paymentMode = .freeTrial
        let requests = try RequestPlanner().planSubscriptionOffers(campaign)
        #expect(requests.count == 5)
        let result = try await Self.validateWithPython(requests)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("5 requests valid against App Store Connect API 4.4.1 schemas"), "\(result.stdout)")
    }

    /// One offer of each kind in each payment mode, with every optional member, read from JSON,
    /// validated, its customer prices resolved: every body the planner makes of it.
    static func everyModeCampaignJSON() -> JSONValue {
        let planned: [String: JSONValue?] = [
            "FREE_TRIAL": .array([price("USA", "free", .bool(true)), price("GBR", "free", .bool(true))]),
            "PAY_AS_YOU_GO": .array([
                price("USA", "customerPrice", .string("3.99")), price("JPN", "customerPrice", .string("480")),
            ]),
            "PAY_UP_FRONT": .array([price("DEU", "pricePoint", .string("pp-deu-599"))]),
        ]
        let modes: [(mode: String, duration: String, periods: Int, plan: String)] = [
            ("FREE_TRIAL", "TWO_WEEKS", 1, "MONTHLY"), ("PAY_AS_YOU_GO", "ONE_MONTH", 3, "UPFRONT"),
            ("PAY_UP_FRONT", "SIX_MONTHS", 1, "MONTHLY"),
        ]
        var promotional: [JSONValue] = []
        var introductory: [JSONValue] = []
        var winBack: [JSONValue] = []
        for (number, mode) in modes.enumerated() {
            let terms: KeyValuePairs<String, JSONValue?> = [
                "paymentMode": .string(mode.mode), "duration": .string(mode.duration),
                "numberOfPeriods": .integer(mode.periods), "targetSubscriptionPlanType": .string(mode.plan),
                "prices": planned[mode.mode] ?? nil,
            ]
            promotional.append(
                CampaignFixtures.changing(
                    CampaignFixtures.changing(
                        Self.promotional,
                        [
                            "referenceName": .string("Promotion \(number)"),
                            "offerIdentifier": .string("promo_\(number)"),
                        ]),
                    terms))
            // One introductory offer per territory at a time: each mode in its own months.
            let month = 4 + 2 * number
            introductory.append(
                CampaignFixtures.changing(
                    CampaignFixtures.changing(
                        Self.introductory,
                        [
                            "startDate": .string("2027-0\(month)-01"), "endDate": .string("2027-0\(month + 1)-15"),
                        ]),
                    terms))
            winBack.append(
                CampaignFixtures.changing(
                    CampaignFixtures.changing(
                        Self.winBack,
                        [
                            "referenceName": .string("Win back \(number)"),
                            "offerIdentifier": .string("winback_\(number)"),
                            "promotionIntent": number == 0 ? .string("USE_AUTO_GENERATED_ASSETS") : nil,
                            "endDate": number == 1 ? nil : .string("2027-06-30"),
                            "priority": .string(number == 2 ? "HIGH" : "NORMAL"),
                        ]),
                    terms))
        }
        return campaignJSON(promotional: promotional, introductory: introductory, winBack: winBack)
    }

    @Test(
        "Every payment mode of every kind plans into bodies Apple's schemas accept",
        .enabled(PythonTool.reason) { await PythonTool.available || PythonTool.isCI })
    func everyModeOfEveryKindIsValidAgainstApplesSchemas() async throws {
        let report = try Self.validate(Self.everyModeCampaignJSON())
        #expect(report.problems.isEmpty, "\(report.problems)")
        let campaign = try await Self.resolution.resolve(try #require(report.campaign))
        let requests = try RequestPlanner().planSubscriptionOffers(campaign)
        // 3 promotional, 2 + 2 + 1 introductory territories, 3 win-back.
        #expect(requests.count == 11)
        // A paid introductory offer names its price point; a free trial does not.
        let pricePoints = requests.filter { $0.subject.offerKind == .introductoryOffer }.map { request -> String? in
            guard
                case .string(let id)? = request.body["data"]?["relationships"]?["subscriptionPricePoint"]?["data"]?[
                    "id"]
            else { return nil }
            return id
        }
        #expect(pricePoints == [nil, nil, "pp-usa-399", "pp-jpn-480", "pp-deu-599"])
        let result = try await Self.validateWithPython(requests)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("11 requests valid against App Store Connect API 4.4.1 schemas"), "\(result.stdout)")
    }

    @Test(
        "The schema check rejects a misspelled or missing win-back member",
        .enabled(PythonTool.reason) { await PythonTool.available || PythonTool.isCI })
    func schemaCheckRejectsBrokenSubscriptionOfferBodies() async throws {
        let requests = try RequestPlanner().planSubscriptionOffers(try await Self.resolvedCampaign())
        var misspelled = requests[3]
        misspelled.body = misspelled.body.editingObject(at: ["data", "attributes"][...]) {
            $0.rename("periodCount", to: "numberOfPeriods")
        }
        let result = try await Self.validateWithPython([misspelled])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("'periodCount' is a required property"), "\(result.stdout)")
        #expect(result.stdout.contains("('numberOfPeriods' was unexpected)"), "\(result.stdout)")
    }
}

/// The queries a lookup received.
actor QueryLog {
    private(set) var all: [PricePointQuery] = []

    func add(_ query: PricePointQuery) { all.append(query) }
}

/// The most calls inside at once.
actor ConcurrencyGauge {
    private var inside = 0
    private(set) var peak = 0

    func enter() {
        inside += 1
        peak = max(peak, inside)
    }

    func leave() { inside -= 1 }
}
