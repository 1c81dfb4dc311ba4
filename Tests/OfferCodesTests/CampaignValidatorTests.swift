import Foundation
import OfferCodes
import OfferJSON
import Testing

@testable import LedgerTestSupport

/// The campaign rules: a valid campaign for every allowed product type and payment mode, a failing
/// example for every rule (rule id, exact path, helpful wording), dates at their edges, the
/// ledger-based limits, and every problem of a file reported at once.
@Suite("Campaign validator")
struct CampaignValidatorTests {
    typealias Fixtures = CampaignFixtures

    private func problems(
        _ type: ProductType, _ mode: PaymentMode, _ changes: KeyValuePairs<String, JSONValue?>
    ) throws -> [ValidationProblem] {
        try Fixtures.problems(ofOffer: Fixtures.offerJSON(type: type, mode: mode, changing: changes))
    }

    private func consumable(_ changes: KeyValuePairs<String, JSONValue?>) throws -> [ValidationProblem] {
        try problems(.consumable, .oneTime, changes)
    }

    private func subscription(
        _ mode: PaymentMode, _ changes: KeyValuePairs<String, JSONValue?>
    ) throws -> [ValidationProblem] {
        try problems(.autoRenewableSubscription, mode, changes)
    }

    private static func customCodes(_ batch: JSONValue) -> JSONValue { .array([batch]) }

    private static func givenCodes(_ codes: [String], redemptionLimit: Int = 1) -> JSONValue {
        .array([
            .object([("codes", .array(codes.map { .string($0) })), ("redemptionLimit", .integer(redemptionLimit))])
        ])
    }

    private static func generated(_ generate: [(key: String, value: JSONValue)]) -> JSONValue {
        .array([.object([("generate", .object(generate)), ("redemptionLimit", .integer(1))])])
    }

    // MARK: Valid campaigns

    @Test func allowsExactlySixProductTypeAndPaymentModePairs() {
        let pairs = Fixtures.allowedCombinations.map { "\($0.0.rawValue) \($0.1.rawValue)" }
        #expect(
            pairs == [
                "AUTO_RENEWABLE_SUBSCRIPTION FREE_TRIAL", "AUTO_RENEWABLE_SUBSCRIPTION PAY_AS_YOU_GO",
                "AUTO_RENEWABLE_SUBSCRIPTION PAY_UP_FRONT", "NON_RENEWING_SUBSCRIPTION ONE_TIME", "CONSUMABLE ONE_TIME",
                "NON_CONSUMABLE ONE_TIME",
            ])
    }

    @Test(arguments: CampaignFixtures.allowedCombinations)
    func passesAValidOfferForEveryAllowedPair(type: ProductType, mode: PaymentMode) throws {
        let campaign = Fixtures.campaign(offers: [Fixtures.offer(type: type, mode: mode)])
        let validator = CampaignValidator(today: Fixtures.today)
        #expect(try validator.validate(campaign) == [])
        let report = try validator.validate(json: Fixtures.bytes(Fixtures.json(campaign)))
        #expect(report.problems == [])
        #expect(report.isValid)
        #expect(report.campaign == campaign)
        #expect(try report.validCampaign() == campaign)
    }

    @Test func passesACampaignWithEveryAllowedPair() async throws {
        let campaign = Fixtures.everyCombination
        #expect(
            try await CampaignValidator(today: Fixtures.today).validate(campaign, against: CampaignFixtureLedger())
                == [])
        #expect(try await Fixtures.validate(Fixtures.json(campaign), against: CampaignFixtureLedger()).isValid)
    }

    @Test func passesTheExampleCampaignToday() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/campaign.json")
        let bytes = try [UInt8](Data(contentsOf: url))
        let today = CalendarDate(unixSeconds: Int64(Date().timeIntervalSince1970))
        let report = try CampaignValidator(today: today).validate(json: bytes)
        #expect(report.problems == [], "\(report.problems.map(\.description))")
        let campaign = try #require(report.campaign)
        #expect(Set(campaign.offers.map(\.product.type)) == Set(ProductType.allCases))
        #expect(Set(campaign.offers.map(\.paymentMode)) == Set(PaymentMode.allCases))
        let batches = campaign.offers.flatMap(\.customCodes)
        #expect(batches.contains { if case .given = $0.source { true } else { false } })
        #expect(batches.contains { if case .generated = $0.source { true } else { false } })
        let oneTimeUse = campaign.offers.flatMap(\.oneTimeUseCodes)
        #expect(oneTimeUse.contains { $0.effectiveEnvironment == .production })
        #expect(oneTimeUse.contains { $0.effectiveEnvironment == .sandbox })
    }

    // MARK: Product type and payment mode

    @Test(arguments: CampaignFixtures.disallowedCombinations)
    func reportsAPaymentModeTheProductTypeDoesNotAllow(type: ProductType, mode: PaymentMode) throws {
        let problem = Fixtures.expectOnly(
            try problems(type, mode, [:]), rule: "payment-mode-for-product-type", path: "$.offers[0].paymentMode",
            message: ["\(mode.rawValue) is not available for", type.displayName],
            allowed: "for \(type == .autoRenewableSubscription ? "an" : "a") \(type.displayName): "
                + type.allowedPaymentModes.map(\.rawValue).joined(separator: ", "))
        #expect(problem?.description.contains("$.offers[0].paymentMode: ") == true)
    }

    @Test func requiresADurationForSubscriptionsOnly() throws {
        Fixtures.expectOnly(
            try subscription(.freeTrial, ["duration": nil]), rule: "duration-for-product-type",
            path: "$.offers[0].duration", message: ["needs a duration"], allowed: "one of THREE_DAYS, ONE_WEEK")
        Fixtures.expectOnly(
            try consumable(["duration": .string("ONE_MONTH")]), rule: "duration-for-product-type",
            path: "$.offers[0].duration", message: ["ONE_MONTH is set", "remove \"duration\""],
            allowed: "auto-renewable subscriptions only")
    }

    @Test(
        arguments: [
            (PaymentMode.freeTrial, JSONValue.integer(3), "numberOfPeriods is 3", "1, or leave it out, for FREE_TRIAL"),
            (.payUpFront, .integer(2), "numberOfPeriods is 2", "1, or leave it out, for PAY_UP_FRONT"),
            (.payAsYouGo, nil, "numberOfPeriods is missing", "an integer >= 1 for PAY_AS_YOU_GO"),
            (.payAsYouGo, .integer(0), "numberOfPeriods is 0", "an integer >= 1 for PAY_AS_YOU_GO"),
            (.payAsYouGo, .integer(-2), "numberOfPeriods is -2", "an integer >= 1 for PAY_AS_YOU_GO"),
        ] as [(PaymentMode, JSONValue?, String, String)])
    func checksTheNumberOfPeriodsOfSubscriptions(
        mode: PaymentMode, periods: JSONValue?, message: String, allowed: String
    )
        throws
    {
        Fixtures.expectOnly(
            try subscription(mode, ["numberOfPeriods": periods]), rule: "number-of-periods",
            path: "$.offers[0].numberOfPeriods", message: [message], allowed: allowed)
    }

    @Test func letsSingleCycleSubscriptionsOmitTheNumberOfPeriods() throws {
        #expect(try subscription(.freeTrial, ["numberOfPeriods": nil]) == [])
        #expect(try subscription(.payUpFront, ["numberOfPeriods": nil]) == [])
        #expect(try subscription(.payAsYouGo, ["numberOfPeriods": .integer(12)]) == [])
    }

    @Test func forbidsTheNumberOfPeriodsForOneTimeOffers() throws {
        Fixtures.expectOnly(
            try consumable(["numberOfPeriods": .integer(1)]), rule: "number-of-periods",
            path: "$.offers[0].numberOfPeriods", message: ["ONE_TIME and have no periods", "remove"],
            allowed: "auto-renewable subscriptions only")
    }

    // MARK: Customer and offer eligibility

    @Test func checksCustomerEligibilities() throws {
        Fixtures.expectOnly(
            try consumable(["customerEligibilities": .array([])]), rule: "customer-eligibilities",
            path: "$.offers[0].customerEligibilities", message: ["empty"],
            allowed: "for a consumable: one or more of NON_SPENDER, ACTIVE_SPENDER, CHURNED_SPENDER")
        Fixtures.expectOnly(
            try consumable(["customerEligibilities": .array([.string("NON_SPENDER"), .string("NEW")])]),
            rule: "customer-eligibility-for-product-type", path: "$.offers[0].customerEligibilities[1]",
            message: ["NEW is for auto-renewable subscriptions, not for a consumable"],
            allowed: "NON_SPENDER, ACTIVE_SPENDER, CHURNED_SPENDER")
        Fixtures.expectOnly(
            try subscription(.freeTrial, ["customerEligibilities": .array([.string("ACTIVE_SPENDER")])]),
            rule: "customer-eligibility-for-product-type", path: "$.offers[0].customerEligibilities[0]",
            message: ["ACTIVE_SPENDER is for in-app purchases", "not for an auto-renewable subscription"],
            allowed: "one or more of NEW, EXISTING, EXPIRED")
        Fixtures.expectOnly(
            try subscription(
                .freeTrial, ["customerEligibilities": .array([.string("NEW"), .string("EXPIRED"), .string("NEW")])]),
            rule: "duplicate-customer-eligibility", path: "$.offers[0].customerEligibilities[2]",
            message: ["NEW is listed more than once"])
    }

    @Test func requiresAnOfferEligibilityForSubscriptionsOnly() throws {
        Fixtures.expectOnly(
            try subscription(.payUpFront, ["offerEligibility": nil]), rule: "offer-eligibility-for-product-type",
            path: "$.offers[0].offerEligibility", message: ["introductory offers", "add offerEligibility"],
            allowed: "one of STACK_WITH_INTRO_OFFERS, REPLACE_INTRO_OFFERS")
        Fixtures.expectOnly(
            try problems(.nonConsumable, .oneTime, ["offerEligibility": .string("REPLACE_INTRO_OFFERS")]),
            rule: "offer-eligibility-for-product-type", path: "$.offers[0].offerEligibility",
            message: ["REPLACE_INTRO_OFFERS is set", "remove"], allowed: "nothing for a non-consumable")
    }

    @Test func forbidsSubscriptionFieldsForOtherProducts() throws {
        Fixtures.expectOnly(
            try problems(.nonRenewingSubscription, .oneTime, ["autoRenewEnabled": .bool(false)]),
            rule: "auto-renewable-only", path: "$.offers[0].autoRenewEnabled",
            message: ["autoRenewEnabled is false", "a non-renewing subscription does not renew"],
            allowed: "auto-renewable subscriptions only")
        Fixtures.expectOnly(
            try consumable(["targetSubscriptionPlanType": .string("UPFRONT")]), rule: "auto-renewable-only",
            path: "$.offers[0].targetSubscriptionPlanType", message: ["UPFRONT", "remove it"],
            allowed: "auto-renewable subscriptions only")
    }

    // MARK: Names and ids

    @Test(arguments: [
        ("", "the reference name is empty"), ("   ", "the reference name is empty"),
        (String(repeating: "x", count: 65), "65 characters long"), ("Spring\tsale", "control character U+0009"),
    ])
    func checksTheReferenceName(name: String, message: String) throws {
        Fixtures.expectOnly(
            try consumable(["referenceName": .string(name)]), rule: "reference-name", path: "$.offers[0].referenceName",
            message: [message], allowed: "at most 64 characters")
    }

    @Test func clipsLongValuesInMessages() throws {
        let name = String(repeating: "y", count: 100)
        let problem = Fixtures.expectOnly(
            try consumable(["referenceName": .string(name)]), rule: "reference-name", path: "$.offers[0].referenceName")
        #expect(problem?.message.contains("\"" + String(repeating: "y", count: 48) + "…\"") == true)
        #expect(problem?.message.contains(String(repeating: "y", count: 49)) == false)
    }

    @Test func requiresProductIds() throws {
        let offer = Fixtures.offerJSON(type: .consumable, mode: .oneTime)
        let product = Fixtures.changing(offer["product"]!, ["id": .string(""), "productId": .string(" ")])
        let found = try Fixtures.problems(ofOffer: Fixtures.changing(offer, ["product": product]))
        #expect(found.map(\.path) == ["$.offers[0].product.id", "$.offers[0].product.productId"])
        #expect(found.map(\.rule) == ["empty-value", "empty-value"])
        #expect(found[0].message.contains("App Store Connect id is empty"))
        #expect(found[1].message.contains("such as com.example.app.monthly"))
    }

    /// A product's App Store Connect id becomes one segment of a URL path (`GET /v2/inAppPurchases/{id}`):
    /// one that could end or leave the segment, or is longer than App Store Connect's, is refused.
    @Test(arguments: [
        "6450000001/../../v1/apps", "..", ".", "6450 000001", "6450000001?limit=200", "6450000001#x", "6450\u{7}0001",
        String(repeating: "9", count: 257),
    ])
    func refusesAProductIdThatIsNotOnePathSegment(id: String) throws {
        let offer = Fixtures.offerJSON(type: .consumable, mode: .oneTime)
        let product = Fixtures.changing(offer["product"]!, ["id": .string(id)])
        _ = Fixtures.expectOnly(
            try Fixtures.problems(ofOffer: Fixtures.changing(offer, ["product": product])), rule: "connect-id",
            path: "$.offers[0].product.id", message: ["is not an App Store Connect id", "codes lookup"],
            allowed: "without spaces, control characters, '/', '?' or '#'")
    }

    @Test(arguments: ["6450000001", "A1b2-C3_d4.e5", String(repeating: "9", count: 256)])
    func acceptsAProductIdThatIsOnePathSegment(id: String) throws {
        let offer = Fixtures.offerJSON(type: .consumable, mode: .oneTime)
        let product = Fixtures.changing(offer["product"]!, ["id": .string(id)])
        #expect(try Fixtures.problems(ofOffer: Fixtures.changing(offer, ["product": product])) == [])
    }

    @Test(arguments: [
        ("spring 2027", "contains a space"), ("", "is empty"), (String(repeating: "n", count: 65), "65 characters"),
        ("frühling", "U+00FC"),
    ])
    func checksTheCampaignName(name: String, message: String) throws {
        let document = Fixtures.changing(Fixtures.json(Fixtures.everyCombination), ["name": .string(name)])
        Fixtures.expectOnly(
            try Fixtures.validate(document).problems, rule: "campaign-name", path: "$.name", message: [message],
            allowed: "letters A-Z a-z, digits 0-9, '-', '_', '.'")
    }

    @Test(arguments: ["demo", "com..example", "com.example.app!", ".com.example", ""])
    func checksTheBundleId(bundleId: String) throws {
        let app = JSONValue.object([("bundleId", .string(bundleId)), ("appAppleId", .string("1234567890"))])
        let document = Fixtures.changing(Fixtures.json(Fixtures.everyCombination), ["app": app])
        Fixtures.expectOnly(
            try Fixtures.validate(document).problems, rule: "bundle-id", path: "$.app.bundleId",
            message: ["\"\(bundleId)\" is not a reverse-DNS bundle ID"], allowed: "com.example.app")
    }

    @Test("a bundle ID over 255 bytes is refused, as the signing library refuses it")
    func refusesABundleIdOver255Bytes() throws {
        let long = "com." + String(repeating: "a", count: 252)
        let app = JSONValue.object([("bundleId", .string(long)), ("appAppleId", .string("1234567890"))])
        let document = Fixtures.changing(Fixtures.json(Fixtures.everyCombination), ["app": app])
        Fixtures.expectOnly(
            try Fixtures.validate(document).problems, rule: "bundle-id", path: "$.app.bundleId",
            message: ["is not a reverse-DNS bundle ID"], allowed: "at most 255 bytes")
    }

    @Test(arguments: ["id123", "123456789012345678901", "", "１２３"])
    func checksTheAppAppleId(appAppleId: String) throws {
        let app = JSONValue.object([("bundleId", .string("com.example.app")), ("appAppleId", .string(appAppleId))])
        let document = Fixtures.changing(Fixtures.json(Fixtures.everyCombination), ["app": app])
        Fixtures.expectOnly(
            try Fixtures.validate(document).problems, rule: "app-apple-id", path: "$.app.appAppleId",
            message: ["is not an App Apple ID"], allowed: "1-20 digits")
    }

    @Test func requiresAtLeastOneOffer() throws {
        let report = try Fixtures.validate(Fixtures.campaignJSON(offers: []))
        Fixtures.expectOnly(report.problems, rule: "offers-not-empty", path: "$.offers", message: ["no offers"])
        #expect(report.campaign?.offers == [])
        #expect(throws: CampaignProblems.self) { try report.validCampaign() }
    }

    // MARK: Prices

    @Test func checksPriceEntries() throws {
        Fixtures.expectOnly(
            try consumable(["prices": .array([])]), rule: "prices-not-empty", path: "$.offers[0].prices",
            message: ["no price entries"], allowed: "one per territory")
        Fixtures.expectOnly(
            try consumable(["prices": .array([Fixtures.priceJSON("usa")])]), rule: "territory-code",
            path: "$.offers[0].prices[0].territory", message: ["\"usa\" is not", "write \"USA\""],
            allowed: "3 upper-case")
        Fixtures.expectOnly(
            try consumable(["prices": .array([Fixtures.priceJSON("US")])]), rule: "territory-code",
            path: "$.offers[0].prices[0].territory", message: ["such as USA"])
        Fixtures.expectOnly(
            try consumable([
                "prices": .array([
                    Fixtures.priceJSON("USA"), Fixtures.priceJSON("JPN"), Fixtures.priceJSON("USA", pricePoint: "p"),
                ])
            ]),
            rule: "duplicate-territory", path: "$.offers[0].prices[2].territory",
            message: ["\"USA\" already has an entry (prices[0])"])
        Fixtures.expectOnly(
            try consumable(["prices": .array([Fixtures.priceJSON("USA", pricePoint: "")])]), rule: "empty-value",
            path: "$.offers[0].prices[0].pricePoint", message: ["price point is empty"])
    }

    @Test func rejectsAPricePointForAFreeTrial() throws {
        let prices = JSONValue.array([Fixtures.priceJSON("USA"), Fixtures.priceJSON("JPN", pricePoint: "JPN-10001")])
        Fixtures.expectOnly(
            try subscription(.freeTrial, ["prices": prices]), rule: "free-trial-price-point",
            path: "$.offers[0].prices[1].pricePoint",
            message: ["\"JPN\" entry has the price point \"JPN-10001\"", "\"free\": true", "409"],
            allowed: "\"free\": true in every territory")
    }

    @Test(arguments: [PaymentMode.payAsYouGo, .payUpFront])
    func requiresAPricePointForPaidSubscriptionOffers(mode: PaymentMode) throws {
        let prices = JSONValue.array([Fixtures.priceJSON("USA"), Fixtures.priceJSON("JPN", pricePoint: "JPN-10001")])
        Fixtures.expectOnly(
            try subscription(mode, ["prices": prices]), rule: "price-point-required", path: "$.offers[0].prices[0]",
            message: ["\"USA\" entry is free", "\(mode.rawValue) offers charge a price", "give a pricePoint"],
            allowed: "a pricePoint in every territory for \(mode.rawValue)")
    }

    @Test func letsOneTimeOffersBeFreeOrPaidPerTerritory() throws {
        let prices = JSONValue.array([Fixtures.priceJSON("USA"), Fixtures.priceJSON("JPN", pricePoint: "JPN-10001")])
        for type in [ProductType.consumable, .nonConsumable, .nonRenewingSubscription] {
            #expect(try problems(type, .oneTime, ["prices": prices]) == [])
        }
    }

    // MARK: One-time-use codes and dates

    private func oneTimeUseProblems(_ date: String, today: CalendarDate = CampaignFixtures.today) throws
        -> [ValidationProblem]
    {
        let batch = JSONValue.object([("count", .integer(10)), ("expirationDate", .string(date))])
        let offer = Fixtures.offerJSON(
            type: .consumable, mode: .oneTime, changing: ["oneTimeUseCodes": .array([batch]), "customCodes": nil])
        return try CampaignValidator(today: today).validate(json: Fixtures.bytes(Fixtures.campaignJSON(offer: offer)))
            .problems
    }

    @Test(arguments: ["2027-03-16", "2027-09-15", "P1D", "P90D", "P6M", "P184D"])
    func acceptsOneTimeUseExpiryWithinSixMonths(date: String) throws {
        #expect(try oneTimeUseProblems(date) == [])
    }

    @Test(arguments: [
        ("2027-09-16", "2027-09-16 is more than 6 months after today (2027-03-15)"),
        ("P7M", "2027-10-15 is more than 6 months"), ("P185D", "2027-09-16 is more than 6 months"),
        ("2027-03-15", "2027-03-15 is not after today (2027-03-15)"), ("2027-03-14", "2027-03-14 is not after today"),
        ("2020-01-01", "2020-01-01 is not after today"),
    ])
    func rejectsOneTimeUseExpiryOutsideSixMonths(date: String, message: String) throws {
        Fixtures.expectOnly(
            try oneTimeUseProblems(date), rule: "one-time-use-expiry",
            path: "$.offers[0].oneTimeUseCodes[0].expirationDate", message: [message],
            allowed: "a date after 2027-03-15 and no later than 2027-09-15")
    }

    @Test func countsSixMonthsToTheLastDayOfShortMonths() throws {
        let today = CalendarDate("2027-08-31")!
        #expect(try oneTimeUseProblems("2028-02-29", today: today) == [])
        #expect(try oneTimeUseProblems("P6M", today: today) == [])
        Fixtures.expectOnly(
            try oneTimeUseProblems("2028-03-01", today: today), rule: "one-time-use-expiry",
            path: "$.offers[0].oneTimeUseCodes[0].expirationDate", message: ["choose 2028-02-29 or earlier"])
    }

    @Test(arguments: [JSONValue.integer(0), .integer(-5)])
    func requiresAtLeastOneOneTimeUseCode(count: JSONValue) throws {
        let batch = JSONValue.object([("count", count), ("expirationDate", .string("P30D"))])
        Fixtures.expectOnly(
            try consumable(["oneTimeUseCodes": .array([batch])]), rule: "code-count",
            path: "$.offers[0].oneTimeUseCodes[0].count", message: ["count is \(count.text())", "at least 1"],
            allowed: "an integer >= 1")
    }

    // MARK: Custom codes

    @Test(arguments: ["2027-03-15", "2027-03-01", "2026-12-31"])
    func rejectsCustomCodeExpiryNotAfterToday(date: String) throws {
        let batch = JSONValue.object([
            ("codes", .array([.string("LATE1")])), ("redemptionLimit", .integer(5)), ("expirationDate", .string(date)),
        ])
        Fixtures.expectOnly(
            try consumable(["customCodes": Self.customCodes(batch)]), rule: "custom-code-expiry",
            path: "$.offers[0].customCodes[0].expirationDate", message: ["\(date) is not after today (2027-03-15)"],
            allowed: "a date after 2027-03-15, or no expirationDate")
    }

    @Test func letsCustomCodesExpireAnyDayAfterTodayOrNever() throws {
        for date: JSONValue? in [.string("2027-03-16"), .string("P1D"), .string("P24M"), .string("2031-01-01"), nil] {
            var members: [(key: String, value: JSONValue)] = [
                ("codes", .array([.string("OK1")])), ("redemptionLimit", .integer(5)),
            ]
            if let date { members.append(("expirationDate", date)) }
            #expect(try consumable(["customCodes": Self.customCodes(.object(members))]) == [])
        }
    }

    @Test func requiresARedemptionLimit() throws {
        Fixtures.expectOnly(
            try consumable(["customCodes": Self.givenCodes(["LIMIT1"], redemptionLimit: 0)]), rule: "redemption-limit",
            path: "$.offers[0].customCodes[0].redemptionLimit", message: ["redemptionLimit is 0"],
            allowed: "an integer >= 1")
    }

    @Test func requiresGivenCodes() throws {
        Fixtures.expectOnly(
            try consumable(["customCodes": Self.givenCodes([])]), rule: "custom-codes-not-empty",
            path: "$.offers[0].customCodes[0].codes", message: ["empty", "\"generate\""])
    }

    @Test(arguments: [
        ("spring27", "has lower-case letters; custom codes are upper-case: write \"SPRING27\""),
        ("SPRING-27", "contains \"-\", which custom codes cannot hold"), ("SPRING 27", "contains a space"),
        ("CAFÉ", "contains U+00C9"), ("", "the code is empty"),
        (String(repeating: "A", count: 65), "65 characters long; custom codes have at most 64"),
    ])
    func checksGivenCodes(code: String, message: String) throws {
        Fixtures.expectOnly(
            try consumable(["customCodes": Self.givenCodes(["VALID1", code])]), rule: "custom-code-format",
            path: "$.offers[0].customCodes[0].codes[1]", message: [message],
            allowed: "1-64 characters: upper-case letters A-Z and digits 0-9")
    }

    @Test func acceptsTheLongestCode() throws {
        #expect(try consumable(["customCodes": Self.givenCodes([String(repeating: "Z9", count: 32)])]) == [])
    }

    @Test(
        arguments: [
            ("count", JSONValue.integer(0), "code-count", "count is 0", "an integer >= 1"),
            ("alphabet", .string("abcd"), "generate-alphabet", "write \"ABCD\"", "at least 2 distinct characters"),
            ("alphabet", .string("AAB"), "generate-alphabet", "has \"A\" more than once", "at least 2 distinct"),
            (
                "alphabet", .string("A"), "generate-alphabet", "has 1 character; random codes need at least 2",
                "A-Z and 0-9"
            ),
            ("alphabet", .string("AB-"), "generate-alphabet", "contains \"-\"", "A-Z and 0-9"),
            (
                "prefix", .string("vip"), "generate-prefix", "prefixes are upper-case: write \"VIP\"",
                "A-Z and digits 0-9"
            ),
            ("prefix", .string("V_P"), "generate-prefix", "contains \"_\"", "A-Z and digits 0-9"),
            (
                "length", .integer(3), "generate-length", "length is 3; generated codes need at least 4",
                "an integer >= 4"
            ),
        ] as [(String, JSONValue, String, String, String)])
    func checksTheCodesToGenerate(member: String, value: JSONValue, rule: String, message: String, allowed: String)
        throws
    {
        guard case .object(let generate) = Fixtures.changing(.object([("count", .integer(10))]), [member: value]) else {
            return
        }
        Fixtures.expectOnly(
            try consumable(["customCodes": Self.generated(generate)]), rule: rule,
            path: "$.offers[0].customCodes[0].generate.\(member)", message: [message], allowed: allowed)
    }

    @Test func limitsThePrefixAndLengthTo64Characters() throws {
        let generate: [(key: String, value: JSONValue)] = [
            ("count", .integer(10)), ("prefix", .string("ABCDEFGHIJ")), ("length", .integer(60)),
        ]
        Fixtures.expectOnly(
            try consumable(["customCodes": Self.generated(generate)]), rule: "generate-length",
            path: "$.offers[0].customCodes[0].generate.length", message: ["70-character codes", "at most 54"],
            allowed: "prefix's length + length <= 64")
        let longest: [(key: String, value: JSONValue)] = [
            ("count", .integer(10)), ("prefix", .string("ABCDEFGHIJ")), ("length", .integer(54)),
        ]
        #expect(try consumable(["customCodes": Self.generated(longest)]) == [])
    }

    @Test func keepsRoomForUniqueGeneratedCodes() throws {
        func generate(_ count: Int) -> JSONValue {
            Self.generated([("count", .integer(count)), ("alphabet", .string("AB")), ("length", .integer(4))])
        }
        #expect(try consumable(["customCodes": generate(8)]) == [])
        Fixtures.expectOnly(
            try consumable(["customCodes": generate(9)]), rule: "generate-count",
            path: "$.offers[0].customCodes[0].generate.count",
            message: ["count is 9", "4 characters from a 2-character alphabet allow only 8 unique codes"],
            allowed: "here 8")
    }

    @Test func limitsEachBatchCountToApplesQuarterlyLimit() throws {
        func oneTimeUse(_ count: Int, _ environment: String? = nil) throws -> [ValidationProblem] {
            var members: [(key: String, value: JSONValue)] = [
                ("count", .integer(count)), ("expirationDate", .string("P30D")),
            ]
            if let environment { members.append(("environment", .string(environment))) }
            return try consumable(["oneTimeUseCodes": .array([.object(members)]), "customCodes": nil])
        }
        #expect(try oneTimeUse(1_000_000) == [])
        let cases: [(problems: [ValidationProblem], quarterRule: String, grouped: String)] = [
            (try oneTimeUse(1_000_001), "production-codes-per-quarter", "1,000,001"),
            (try oneTimeUse(1_000_000_000_000), "production-codes-per-quarter", "1,000,000,000,000"),
            (try oneTimeUse(2_000_000, "SANDBOX"), "sandbox-codes-per-quarter", "2,000,000"),
        ]
        for (problems, quarterRule, grouped) in cases {
            // The batch's own count, at its path; and the quarter's total, at $.offers.
            #expect(problems.map(\.rule).sorted() == ["code-count", quarterRule], "\(problems)")
            let problem = try #require(problems.first { $0.rule == "code-count" })
            #expect(problem.path == "$.offers[0].oneTimeUseCodes[0].count")
            for part in [
                "count is \(grouped),", "Apple's limit of 1,000,000 codes per app per quarter",
                "ask for at most 1,000,000",
            ] {
                #expect(problem.message.contains(part), "\(problem.message) lacks \(part)")
            }
            #expect(problem.allowed?.contains("an integer >= 1 and at most 1,000,000") == true, "\(problem)")
        }
        // A sandbox batch within 1,000,000 is left to the quarter's sandbox limit (10,000).
        #expect(try oneTimeUse(20_000, "SANDBOX").map(\.rule) == ["sandbox-codes-per-quarter"])
    }

    @Test func limitsGeneratedCountsToApplesQuarterlyLimit() throws {
        func generate(_ count: Int, length: Int = 10, alphabet: String = CodeGenerationSpec.defaultAlphabet) throws
            -> [ValidationProblem]
        {
            try consumable([
                "oneTimeUseCodes": nil,
                "customCodes": Self.generated([
                    ("count", .integer(count)), ("length", .integer(length)), ("alphabet", .string(alphabet)),
                ]),
            ])
        }
        #expect(try generate(1_000_000) == [])
        // Over Apple's limit, and over half of a small space: only the limit is reported for the count.
        let cases = [
            (1_000_001, 10, CodeGenerationSpec.defaultAlphabet, "1,000,001"),
            (Int.max, 4, "AB", "9,223,372,036,854,775,807"),
        ]
        for (count, length, alphabet, grouped) in cases {
            let problems = try generate(count, length: length, alphabet: alphabet)
            #expect(problems.map(\.rule).sorted() == ["code-count", "production-codes-per-quarter"], "\(problems)")
            let problem = try #require(problems.first { $0.rule == "code-count" })
            #expect(problem.path == "$.offers[0].customCodes[0].generate.count")
            #expect(problem.message.contains("count is \(grouped),"), "\(problem.message)")
            #expect(problem.message.contains("limit of 1,000,000 codes per app per quarter"), "\(problem.message)")
            #expect(problem.allowed?.contains("at most 1,000,000") == true)
        }
    }

    // MARK: Duplicates

    @Test func rejectsDuplicateReferenceNames() throws {
        let offers = [
            Fixtures.offerJSON(type: .consumable, mode: .oneTime, referenceName: "Spring"),
            Fixtures.offerJSON(type: .nonConsumable, mode: .oneTime, referenceName: "Spring"),
        ]
        Fixtures.expectOnly(
            try Fixtures.validate(Fixtures.campaignJSON(offers: offers)).problems, rule: "duplicate-reference-name",
            path: "$.offers[1].referenceName", message: ["\"Spring\" is also the reference name of offers[0]"],
            allowed: "unique among the app's offers")
    }

    @Test func rejectsReferenceNamesOfActiveOffersInOtherCampaigns() async throws {
        let offer = Fixtures.offerJSON(type: .consumable, mode: .oneTime, referenceName: "Gems")
        let ledger = CampaignFixtureLedger(entries: [
            .init(campaign: "winter-2026", activeOffers: ["Gems"]),
            .init(campaign: Fixtures.campaignName, activeOffers: ["Gems"]),
        ])
        Fixtures.expectOnly(
            try await Fixtures.problems(ofOffer: offer, against: ledger), rule: "duplicate-reference-name",
            path: "$.offers[0].referenceName", message: ["active offer of this app in another campaign", "ledger"])
        let ownOnly = CampaignFixtureLedger(entries: [
            .init(campaign: Fixtures.campaignName, activeOffers: ["Gems"]),
            .init(campaign: "other-app", appAppleId: "999", activeOffers: ["Gems"]),
        ])
        #expect(try await Fixtures.problems(ofOffer: offer, against: ownOnly) == [])
    }

    @Test func rejectsDuplicateCustomCodesIgnoringCase() throws {
        let offers = [
            Fixtures.offerJSON(
                type: .consumable, mode: .oneTime, changing: ["customCodes": Self.givenCodes(["SPRING27"])]),
            Fixtures.offerJSON(
                type: .nonConsumable, mode: .oneTime, changing: ["customCodes": Self.givenCodes(["OTHER", "SPRING27"])]),
        ]
        Fixtures.expectOnly(
            try Fixtures.validate(Fixtures.campaignJSON(offers: offers)).problems, rule: "duplicate-custom-code",
            path: "$.offers[1].customCodes[0].codes[1]",
            message: ["\"SPRING27\" is also at $.offers[0].customCodes[0].codes[0]"],
            allowed: "each custom code once per app")
        let sameBatch = try consumable(["customCodes": Self.givenCodes(["ABC1", "abc1"])])
        #expect(sameBatch.map(\.rule) == ["custom-code-format", "duplicate-custom-code"])
        #expect(sameBatch.allSatisfy { $0.path == "$.offers[0].customCodes[0].codes[1]" })
    }

    @Test func rejectsCustomCodesIssuedByOtherCampaigns() async throws {
        let offer = Fixtures.offerJSON(
            type: .consumable, mode: .oneTime, changing: ["customCodes": Self.givenCodes(["NEW1", "SPRING27"])])
        let ledger = CampaignFixtureLedger(entries: [.init(campaign: "winter-2026", codes: ["spring27"])])
        Fixtures.expectOnly(
            try await Fixtures.problems(ofOffer: offer, against: ledger), rule: "duplicate-custom-code",
            path: "$.offers[0].customCodes[0].codes[1]",
            message: ["\"SPRING27\" was already issued", "another campaign"])
        let elsewhere = CampaignFixtureLedger(entries: [
            .init(campaign: Fixtures.campaignName, codes: ["SPRING27"]),
            .init(campaign: "winter-2026", appAppleId: "999", codes: ["SPRING27"]),
        ])
        #expect(try await Fixtures.problems(ofOffer: offer, against: elsewhere) == [])
    }

    // MARK: Limits across offers and campaigns

    private func plainOffers(_ count: Int) -> [OfferDefinition] {
        (0..<count).map { index in
            var offer = Fixtures.offer(type: .consumable, mode: .oneTime, referenceName: "Offer \(index)")
            offer.customCodes = []
            return offer
        }
    }

    @Test func allowsTenActiveOffersPerApp() throws {
        let validator = CampaignValidator(today: Fixtures.today)
        #expect(try validator.validate(Fixtures.campaign(offers: plainOffers(10))) == [])
        Fixtures.expectOnly(
            try validator.validate(Fixtures.campaign(offers: plainOffers(11))), rule: "active-offers-limit",
            path: "$.offers",
            message: ["11 offers", "limit of 10 active offers"], allowed: "at most 10 active offers per app")
    }

    @Test func countsActiveOffersOfOtherCampaigns() async throws {
        let ledger = CampaignFixtureLedger(entries: [
            .init(campaign: "winter-2026", activeOffers: ["Old 1", "Old 2"]),
            .init(campaign: "autumn-2026", activeOffers: ["Old 3"]),
            .init(campaign: Fixtures.campaignName, activeOffers: ["Offer 0", "Offer 1"]),
            .init(campaign: "other-app", appAppleId: "999", activeOffers: ["Else"]),
        ])
        let validator = CampaignValidator(today: Fixtures.today)
        #expect(try await validator.validate(Fixtures.campaign(offers: plainOffers(7)), against: ledger) == [])
        Fixtures.expectOnly(
            try await validator.validate(Fixtures.campaign(offers: plainOffers(8)), against: ledger),
            rule: "active-offers-limit",
            path: "$.offers",
            message: ["8 offers", "3 active offers", "11 in all"])
    }

    @Test func countsTheOffersThatCouldNotBeRead() throws {
        var offers = plainOffers(10).map(Fixtures.json)
        offers.append(Fixtures.changing(offers[0], ["referenceName": .integer(11)]))
        let problems = try Fixtures.validate(Fixtures.campaignJSON(offers: offers)).problems
        #expect(problems.map(\.rule) == ["active-offers-limit", "wrong-type"])
    }

    private func codesOffer(production: Int, sandbox: Int = 0, custom: (codes: Int, limit: Int) = (0, 0))
        -> OfferDefinition
    {
        var offer = Fixtures.offer(type: .consumable, mode: .oneTime)
        offer.oneTimeUseCodes = [
            OneTimeUseBatch(count: production, expirationDate: Fixtures.day(90)),
            OneTimeUseBatch(count: max(sandbox, 1), expirationDate: Fixtures.day(90), environment: .sandbox),
        ]
        offer.customCodes =
            custom.codes == 0
            ? []
            : [
                CustomCodeBatch(
                    source: .generated(CodeGenerationSpec(count: custom.codes)), redemptionLimit: custom.limit)
            ]
        return offer
    }

    @Test func limitsProductionCodesPerQuarter() throws {
        let validator = CampaignValidator(today: Fixtures.today)
        let atLimit = codesOffer(production: 600_000, custom: (1000, 400))
        #expect(try validator.validate(Fixtures.campaign(offers: [atLimit])) == [])
        let over = codesOffer(production: 600_001, custom: (1000, 400))
        Fixtures.expectOnly(
            try validator.validate(Fixtures.campaign(offers: [over])), rule: "production-codes-per-quarter",
            path: "$.offers",
            message: ["1,000,001 production codes in 2027-Q1", "limit of 1,000,000", "lower redemption limits"],
            allowed: "at most 1,000,000 production codes per app per calendar quarter")
    }

    @Test func countsProductionCodesOfOtherCampaignsInTheSameQuarter() async throws {
        let ledger = CampaignFixtureLedger(entries: [
            .init(campaign: "winter-2026", productionCodes: 999_000),
            .init(campaign: "autumn-2026", quarter: "2026-Q4", productionCodes: 500_000),
            .init(campaign: Fixtures.campaignName, productionCodes: 500_000),
            .init(campaign: "other-app", appAppleId: "999", productionCodes: 500_000),
        ])
        let validator = CampaignValidator(today: Fixtures.today)
        #expect(
            try await validator.validate(Fixtures.campaign(offers: [codesOffer(production: 1000)]), against: ledger)
                == [])
        Fixtures.expectOnly(
            try await validator.validate(Fixtures.campaign(offers: [codesOffer(production: 1001)]), against: ledger),
            rule: "production-codes-per-quarter", path: "$.offers",
            message: ["1,001 production codes", "ledger holds 999,000 more", "1,000,001 in all"])
    }

    @Test func limitsSandboxCodesPerQuarter() async throws {
        let validator = CampaignValidator(today: Fixtures.today)
        #expect(try validator.validate(Fixtures.campaign(offers: [codesOffer(production: 1, sandbox: 10_000)])) == [])
        Fixtures.expectOnly(
            try validator.validate(Fixtures.campaign(offers: [codesOffer(production: 1, sandbox: 10_001)])),
            rule: "sandbox-codes-per-quarter", path: "$.offers", message: ["10,001 sandbox codes", "limit of 10,000"],
            allowed: "at most 10,000 sandbox codes per app per calendar quarter")
        let ledger = CampaignFixtureLedger(entries: [.init(campaign: "winter-2026", sandboxCodes: 9_990)])
        Fixtures.expectOnly(
            try await CampaignValidator(today: Fixtures.today)
                .validate(Fixtures.campaign(offers: [codesOffer(production: 1, sandbox: 11)]), against: ledger),
            rule: "sandbox-codes-per-quarter", path: "$.offers", message: ["ledger holds 9,990 more", "10,001 in all"])
    }

    @Test func passesLedgerErrorsOn() async {
        let validator = CampaignValidator(today: Fixtures.today)
        let ledger = CampaignFixtureLedger(failing: true)
        await #expect(throws: CampaignFixtureLedger.Unsupported.self) {
            try await validator.validate(Fixtures.everyCombination, against: ledger)
        }
        await #expect(throws: CampaignFixtureLedger.Unsupported.self) {
            try await validator.validate(
                json: Fixtures.bytes(Fixtures.json(Fixtures.everyCombination)), against: ledger)
        }
    }

    // MARK: Everything at once

    @Test func reportsEveryProblemOfAFileAtOnce() throws {
        let shapeBroken = Fixtures.offerJSON(
            type: .consumable, mode: .oneTime,
            changing: ["paymentMode": .string("ONE_TIMES"), "colour": .string("red"), "customerEligibilities": nil])
        let trial = Fixtures.offerJSON(
            type: .autoRenewableSubscription, mode: .freeTrial,
            changing: [
                "prices": .array([Fixtures.priceJSON("USA", pricePoint: "USA-1")]),
                "oneTimeUseCodes": .array([.object([("count", .integer(5)), ("expirationDate", .string("P7M"))])]),
                "customCodes": Self.givenCodes(["spring27"]),
            ])
        let gems = Fixtures.offerJSON(
            type: .consumable, mode: .oneTime, referenceName: "autoRenewable consumable",
            changing: ["duration": .string("ONE_WEEK"), "customerEligibilities": .array([.string("NEW")])])
        let repeated = Fixtures.offerJSON(
            type: .nonConsumable, mode: .oneTime, referenceName: "autoRenewable consumable",
            changing: ["customCodes": Self.givenCodes(["SPRING27"])])
        let document = Fixtures.campaignJSON(
            offers: [shapeBroken, trial, gems, repeated],
            changing: [
                "name": .string("spring 2027"),
                "app": .object([("bundleId", .string("demo")), ("appAppleId", .integer(1))]),
            ])
        let report = try Fixtures.validate(document)
        #expect(report.campaign == nil)
        #expect(throws: CampaignProblems(report.problems)) { try report.validCampaign() }
        let found = report.problems.map { "\($0.rule) \($0.path)" }
        #expect(
            found == [
                "campaign-name $.name",
                "bundle-id $.app.bundleId",
                "wrong-type $.app.appAppleId",
                "invalid-value $.offers[0].paymentMode",
                "unknown-member $.offers[0].colour",
                "missing-member $.offers[0].customerEligibilities",
                "free-trial-price-point $.offers[1].prices[0].pricePoint",
                "one-time-use-expiry $.offers[1].oneTimeUseCodes[0].expirationDate",
                "custom-code-format $.offers[1].customCodes[0].codes[0]",
                "customer-eligibility-for-product-type $.offers[2].customerEligibilities[0]",
                // The first offer's shape problems no longer hide it: it has the same custom code.
                "duplicate-custom-code $.offers[2].customCodes[0].codes[0]",
                "duration-for-product-type $.offers[2].duration",
                "duplicate-reference-name $.offers[3].referenceName",
                "duplicate-custom-code $.offers[3].customCodes[0].codes[0]",
            ])
        for problem in report.problems {
            #expect(!problem.message.isEmpty && problem.allowed?.isEmpty == false, "\(problem)")
        }
    }

    @Test func reportsProblemsOfACampaignBuiltInSwiftWithTheirIndex() throws {
        var broken = Fixtures.offer(type: .nonConsumable, mode: .oneTime)
        broken.paymentMode = .payUpFront
        broken.oneTimeUseCodes[0].expirationDate = Fixtures.today
        let campaign = Fixtures.campaign(offers: [Fixtures.offer(type: .consumable, mode: .oneTime), broken])
        let found = try CampaignValidator(today: Fixtures.today).validate(campaign)
        #expect(found.map(\.path) == ["$.offers[1].paymentMode", "$.offers[1].oneTimeUseCodes[0].expirationDate"])
        #expect(found.map(\.rule) == ["payment-mode-for-product-type", "one-time-use-expiry"])
    }

    @Test func validCampaignReturnsTheCampaignOrThrowsEveryProblem() throws {
        let report = try Fixtures.validate(Fixtures.json(Fixtures.everyCombination))
        #expect(try report.validCampaign() == Fixtures.everyCombination)
        let failing = ValidationReport(
            campaign: Fixtures.everyCombination,
            problems: [ValidationProblem(path: "$.name", rule: "campaign-name", message: "m", allowed: "a")])
        #expect(!failing.isValid)
        #expect(throws: CampaignProblems(failing.problems)) { try failing.validCampaign() }
    }

    @Test func aProblemAsJSONHasPathRuleMessageAndAllowedOnlyWhenThereIsOne() {
        let withAllowed = ValidationProblem(path: "$.name", rule: "campaign-name", message: "m \"q\"", allowed: "a")
        #expect(
            withAllowed.jsonValue().text()
                == #"{"path":"$.name","rule":"campaign-name","message":"m \"q\"","allowed":"a"}"#)
        let without = ValidationProblem(path: "$", rule: "json-syntax", message: "m")
        #expect(without.jsonValue().text() == #"{"path":"$","rule":"json-syntax","message":"m"}"#)
    }
}
