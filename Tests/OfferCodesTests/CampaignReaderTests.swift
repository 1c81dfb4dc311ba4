import OfferCodes
import OfferJSON
import Testing

@testable import LedgerTestSupport

/// Reading campaign files: the model they give, and every shape problem (syntax, types, members,
/// enum values, dates) reported at once with its JSON path.
@Suite("Campaign reader")
struct CampaignReaderTests {
    typealias Fixtures = CampaignFixtures

    private func readProblems(_ text: String) -> [ValidationProblem] {
        do {
            _ = try CampaignReader(today: Fixtures.today).read(json: Array(text.utf8))
            Issue.record("expected problems")
            return []
        } catch {
            return error.problems
        }
    }

    private func offerProblems(_ changes: KeyValuePairs<String, JSONValue?>) throws -> [ValidationProblem] {
        try Fixtures.problems(
            ofOffer: Fixtures.offerJSON(type: .autoRenewableSubscription, mode: .payAsYouGo, changing: changes))
    }

    // MARK: The model

    @Test func readsEveryAllowedCombinationIntoTheSameModel() throws {
        let expected = Fixtures.everyCombination
        let campaign = try CampaignReader(today: Fixtures.today).read(json: Fixtures.bytes(Fixtures.json(expected)))
        #expect(campaign == expected)
    }

    @Test func fillsTheDefaultsOfGeneratedCodesAndKeepsOmittedFieldsEmpty() throws {
        let offer = Fixtures.offerJSON(
            type: .autoRenewableSubscription, mode: .freeTrial,
            changing: [
                "numberOfPeriods": nil,
                "customCodes": .array([
                    .object([("generate", .object([("count", .integer(5))])), ("redemptionLimit", .integer(1))])
                ]),
                "oneTimeUseCodes": .array([.object([("count", .integer(3)), ("expirationDate", .string("P10D"))])]),
            ])
        let campaign = try CampaignReader(today: Fixtures.today).read(
            json: Fixtures.bytes(Fixtures.campaignJSON(offer: offer)))
        let read = try #require(campaign.offers.first)
        #expect(read.numberOfPeriods == nil)
        #expect(
            read.customCodes == [CustomCodeBatch(source: .generated(CodeGenerationSpec(count: 5)), redemptionLimit: 1)])
        #expect(read.oneTimeUseCodes == [OneTimeUseBatch(count: 3, expirationDate: Fixtures.day(10))])
        #expect(read.oneTimeUseCodes.first?.effectiveEnvironment == .production)
    }

    @Test func treatsNullAsAnAbsentOptionalMember() throws {
        let offer = Fixtures.offerJSON(
            type: .consumable, mode: .oneTime, changing: ["customCodes": .null, "duration": .null])
        let campaign = try CampaignReader(today: Fixtures.today).read(
            json: Fixtures.bytes(Fixtures.campaignJSON(offer: offer)))
        #expect(campaign.offers.first?.customCodes == [])
        #expect(campaign.offers.first?.duration == nil)
    }

    @Test func acceptsAByteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Fixtures.bytes(Fixtures.json(Fixtures.everyCombination))
        #expect(try CampaignReader(today: Fixtures.today).read(json: bytes) == Fixtures.everyCombination)
    }

    // MARK: Relative dates

    @Test(arguments: [
        ("P1D", "2027-03-16"), ("P90D", "2027-06-13"), ("P365D", "2028-03-14"), ("P1M", "2027-04-15"),
        ("P6M", "2027-09-15"), ("P12M", "2028-03-15"), ("2027-12-31", "2027-12-31"),
    ])
    func resolvesDatesAgainstToday(text: String, expected: String) throws {
        let offer = Fixtures.offerJSON(
            type: .consumable, mode: .oneTime,
            changing: [
                "customCodes": .array([
                    .object([
                        ("codes", .array([.string("DATES1")])), ("redemptionLimit", .integer(1)),
                        ("expirationDate", .string(text)),
                    ])
                ])
            ])
        let campaign = try CampaignReader(today: Fixtures.today).read(
            json: Fixtures.bytes(Fixtures.campaignJSON(offer: offer)))
        #expect(campaign.offers.first?.customCodes.first?.expirationDate?.description == expected)
    }

    @Test func resolvesRelativeDaysLikeFoundation() throws {
        for days in [1, 30, 90, 180, 366, 1000] {
            let offer = Fixtures.offerJSON(
                type: .consumable, mode: .oneTime,
                changing: [
                    "oneTimeUseCodes": .array([
                        .object([("count", .integer(1)), ("expirationDate", .string("P\(days)D"))])
                    ])
                ])
            let reader = CampaignReader(today: CalendarDate("2027-12-30")!)
            let campaign = try reader.read(json: Fixtures.bytes(Fixtures.campaignJSON(offer: offer)))
            #expect(
                campaign.offers.first?.oneTimeUseCodes.first?.expirationDate
                    == Fixtures.day(days, after: CalendarDate("2027-12-30")!))
        }
    }

    @Test func clampsRelativeMonthsToTheMonthsLastDay() throws {
        let offer = Fixtures.offerJSON(
            type: .consumable, mode: .oneTime,
            changing: [
                "oneTimeUseCodes": .array([.object([("count", .integer(1)), ("expirationDate", .string("P6M"))])])
            ])
        let campaign = try CampaignReader(today: CalendarDate("2027-08-31")!)
            .read(json: Fixtures.bytes(Fixtures.campaignJSON(offer: offer)))
        #expect(campaign.offers.first?.oneTimeUseCodes.first?.expirationDate.description == "2028-02-29")
    }

    @Test(arguments: [
        ("2027-02-30", "is not a day of the calendar"), ("next week", "is not a date"), ("P0D", "zero"),
        ("P3W", "is not a date"), ("p90d", "is not a date"), ("2027-3-1", "is not a date"), ("P999999M", "9999"),
        ("2027-03-20T00:00:00Z", "is not a date"),
    ])
    func reportsDatesThatAreNotDates(text: String, reason: String) throws {
        let problems = try offerProblems([
            "oneTimeUseCodes": .array([.object([("count", .integer(1)), ("expirationDate", .string(text))])])
        ])
        Fixtures.expectOnly(
            problems, rule: "invalid-date", path: "$.offers[0].oneTimeUseCodes[0].expirationDate",
            message: ["\"\(text)\"", reason], allowed: "YYYY-MM-DD, or P<n>D / P<n>M")
    }

    // MARK: Not JSON

    @Test func namesTheLineAndColumnOfASyntaxError() {
        let problems = readProblems("{\n  \"name\": \"spring\",\n  \"app\": }\n")
        Fixtures.expectOnly(problems, rule: "not-json", path: "$", message: ["line 3, column 10", "not valid JSON"])
    }

    @Test(arguments: [
        ("{\"name\": \"a\"} x", "line 1, column 15", "trailing"),
        ("{\n\"name\": \"a\",\n\"name\": \"b\"}", "line 3, column 6", "duplicate member \"name\""),
        ("{\"name\": \"a\tb\"}", "line 1, column 12", "control character"),
        ("{\"name\": \"spring", "line 1, column 17", "unterminated"),
        ("{\"offers\": [1, 2,]}", "line 1, column 18", "invalid value"),
        ("{\n  \"a\": 1\n  \"b\": 2\n}", "line 3, column 3", "expected ',' or '}'"),
    ])
    func locatesEveryKindOfSyntaxError(text: String, location: String, reason: String) {
        let problems = readProblems(text)
        Fixtures.expectOnly(problems, rule: "not-json", path: "$", message: [location, reason])
    }

    @Test func reportsAnEmptyFile() {
        Fixtures.expectOnly(readProblems(" \n"), rule: "not-json", path: "$", message: ["empty"])
    }

    // MARK: Types

    @Test func reportsADocumentThatIsNotAnObject() {
        Fixtures.expectOnly(
            readProblems("[1, 2]"), rule: "wrong-type", path: "$", message: ["found an array"],
            allowed: "name, app, offers")
    }

    @Test(arguments: [
        ("numberOfPeriods", JSONValue.string("3"), "found a string \"3\"; remove the quotes", "an integer"),
        ("numberOfPeriods", .number("2.5"), "found a fractional number 2.5; use a whole number", "an integer"),
        ("referenceName", .integer(42), "found an integer 42; put the value in quotes", "non-empty string"),
        ("customerEligibilities", .string("NEW"), "found a string \"NEW\"; put the value in brackets", "array"),
        ("autoRenewEnabled", .string("true"), "found a string \"true\"; remove the quotes", "true or false"),
        ("prices", .object([("territory", .string("USA"))]), "found an object; put the value in brackets", "array"),
        ("product", .string("com.example.offerkit.monthly"), "found a string", "id, productId and type"),
        ("paymentMode", .integer(1), "found an integer 1", "one of FREE_TRIAL"),
        ("referenceName", .null, "found null", "non-empty string"),
    ])
    func reportsWrongTypesWithAHint(member: String, value: JSONValue, message: String, allowed: String) throws {
        let problems = try offerProblems([member: value])
        Fixtures.expectOnly(
            problems, rule: "wrong-type", path: "$.offers[0].\(member)", message: [message], allowed: allowed)
    }

    @Test func reportsAnIntegerTooLargeForTheModel() throws {
        let problems = try offerProblems(["numberOfPeriods": .number("99999999999999999999")])
        Fixtures.expectOnly(
            problems, rule: "invalid-value", path: "$.offers[0].numberOfPeriods", message: ["too large"])
    }

    // MARK: Members

    @Test(arguments: [
        ("paymentMode", "one of FREE_TRIAL"), ("referenceName", "at most 64"), ("product", "id, productId and type"),
        ("customerEligibilities", "array"), ("prices", "one per territory"),
    ])
    func reportsMissingRequiredMembers(member: String, allowed: String) throws {
        let problems = try offerProblems([member: nil])
        Fixtures.expectOnly(
            problems, rule: "missing-member", path: "$.offers[0].\(member)",
            message: ["has no \"\(member)\"", "add it"],
            allowed: allowed)
    }

    @Test func reportsMissingMembersAtEveryLevel() {
        let problems = readProblems(
            #"{"offers": [{"product": {}, "prices": [{}], "oneTimeUseCodes": [{}], "customCodes": [{"generate": {}}]}]}"#
        )
        let missing = problems.filter { $0.rule == "missing-member" }.map(\.path)
        // Missing members come after the members their object has.
        #expect(
            missing == [
                "$.offers[0].product.id", "$.offers[0].product.productId", "$.offers[0].product.type",
                "$.offers[0].prices[0].territory", "$.offers[0].oneTimeUseCodes[0].count",
                "$.offers[0].oneTimeUseCodes[0].expirationDate", "$.offers[0].customCodes[0].generate.count",
                "$.offers[0].customCodes[0].redemptionLimit", "$.offers[0].referenceName", "$.offers[0].paymentMode",
                "$.offers[0].customerEligibilities", "$.name", "$.app",
            ])
        #expect(problems.filter { $0.rule != "missing-member" }.map(\.rule) == ["price-or-free"])
    }

    @Test(arguments: [
        ("refrenceName", "did you mean \"referenceName\"?"), ("reference_name", "did you mean \"referenceName\"?"),
        ("PaymentMode", "did you mean \"paymentMode\"?"), ("oneTimeUse", "did you mean \"oneTimeUseCodes\"?"),
        ("colour", "remove it"),
    ])
    func reportsUnknownMembersWithAHint(member: String, hint: String) throws {
        let problems = try offerProblems([member: .string("x")])
        let problem = try #require(problems.first { $0.rule == "unknown-member" })
        #expect(problem.path == "$.offers[0].\(member)")
        #expect(problem.message.contains("the offer has no member \"\(member)\"; \(hint)"), "\(problem)")
        #expect(problem.allowed?.contains("referenceName, product, paymentMode") == true)
    }

    @Test func reportsUnknownMembersInNestedObjects() throws {
        let generate = JSONValue.object([("count", .integer(5)), ("lenght", .integer(8))])
        let offer = Fixtures.offerJSON(
            type: .consumable, mode: .oneTime,
            changing: ["customCodes": .array([.object([("generate", generate), ("redemptionLimit", .integer(1))])])])
        let document = Fixtures.changing(Fixtures.campaignJSON(offer: offer), ["offer": .array([])])
        let problems = try Fixtures.validate(document).problems
        #expect(problems.map(\.path) == ["$.offers[0].customCodes[0].generate.lenght", "$.offer"])
        #expect(problems.map(\.rule) == ["unknown-member", "unknown-member"])
        #expect(problems[0].message.contains("did you mean \"length\"?"))
        #expect(problems[1].message.contains("did you mean \"offers\"?"))
    }

    @Test func writesOddMemberNamesInBrackets() throws {
        let problems = try Fixtures.validate(
            Fixtures.changing(Fixtures.json(Fixtures.everyCombination), ["two \"words\"": .null])
        ).problems
        Fixtures.expectOnly(problems, rule: "unknown-member", path: #"$["two \"words\""]"#)
    }

    // MARK: Enum values

    @Test(
        arguments: [
            (
                "$.offers[0].product.type", "AUTO_RENEWABLE",
                "AUTO_RENEWABLE_SUBSCRIPTION, NON_RENEWING_SUBSCRIPTION, CONSUMABLE, NON_CONSUMABLE",
                "AUTO_RENEWABLE_SUBSCRIPTION"
            ),
            (
                // Any case is read (free_trial is FREE_TRIAL); another separator is no spelling, with a hint.
                "$.offers[0].paymentMode", "free-trial", "FREE_TRIAL, PAY_AS_YOU_GO, PAY_UP_FRONT, ONE_TIME",
                "FREE_TRIAL"
            ),
            (
                "$.offers[0].duration", "1_MONTH",
                "THREE_DAYS, ONE_WEEK, TWO_WEEKS, ONE_MONTH, TWO_MONTHS, THREE_MONTHS, SIX_MONTHS, ONE_YEAR", nil
            ),
            (
                "$.offers[0].customerEligibilities[1]", "EXPIRD",
                "NEW, EXISTING, EXPIRED, NON_SPENDER, ACTIVE_SPENDER, CHURNED_SPENDER", "EXPIRED"
            ),
            (
                "$.offers[0].offerEligibility", "STACK", "STACK_WITH_INTRO_OFFERS, REPLACE_INTRO_OFFERS",
                "STACK_WITH_INTRO_OFFERS"
            ),
            ("$.offers[0].targetSubscriptionPlanType", "YEARLY", "MONTHLY, UPFRONT", nil),
            ("$.offers[0].oneTimeUseCodes[0].environment", "producton", "PRODUCTION, SANDBOX", "PRODUCTION"),
        ] as [(String, String, String, String?)])
    func reportsInvalidValuesOfEveryList(path: String, value: String, allowed: String, suggestion: String?) throws {
        var offer = Fixtures.offerJSON(type: .autoRenewableSubscription, mode: .payAsYouGo)
        let bad = JSONValue.string(value)
        switch path {
        case "$.offers[0].product.type":
            offer = Fixtures.changing(offer, ["product": Fixtures.changing(offer["product"]!, ["type": bad])])
        case "$.offers[0].customerEligibilities[1]":
            offer = Fixtures.changing(offer, ["customerEligibilities": .array([.string("NEW"), bad])])
        case "$.offers[0].oneTimeUseCodes[0].environment":
            let batch = JSONValue.object([
                ("count", .integer(5)), ("expirationDate", .string("P30D")), ("environment", bad),
            ])
            offer = Fixtures.changing(offer, ["oneTimeUseCodes": .array([batch])])
        default:
            offer = Fixtures.changing(offer, [String(path.split(separator: ".").last!): bad])
        }
        let problems = try Fixtures.problems(ofOffer: offer)
        let problem = Fixtures.expectOnly(
            problems, rule: "invalid-value", path: path, message: ["\"\(value)\" is not a"],
            allowed: "one of " + allowed)
        if let suggestion {
            #expect(
                problem?.message.contains("did you mean \"\(suggestion)\"?") == true, "\(String(describing: problem))")
        } else {
            #expect(problem?.message.contains("did you mean") == false)
        }
    }

    // MARK: Exactly one of

    @Test func reportsAPriceEntryWithBothOrNeitherPriceAndFree() throws {
        let both = JSONValue.object([
            ("territory", .string("USA")), ("pricePoint", .string("p")), ("free", .bool(true)),
        ])
        let neither = JSONValue.object([("territory", .string("GBR"))])
        let notFree = JSONValue.object([("territory", .string("JPN")), ("free", .bool(false))])
        let problems = try Fixtures.problems(
            ofOffer: Fixtures.offerJSON(
                type: .consumable, mode: .oneTime, changing: ["prices": .array([both, neither, notFree])]))
        #expect(problems.map(\.path) == ["$.offers[0].prices[0]", "$.offers[0].prices[1]", "$.offers[0].prices[2]"])
        #expect(problems.allSatisfy { $0.rule == "price-or-free" && $0.allowed?.contains("exactly one of") == true })
        #expect(problems[0].message.contains("both"))
        #expect(problems[1].message.contains("neither"))
        #expect(problems[2].message.contains("\"free\": false but no \"pricePoint\""))
    }

    @Test func acceptsFreeFalseWithAPricePoint() throws {
        let entry = JSONValue.object([
            ("territory", .string("USA")), ("pricePoint", .string("p")), ("free", .bool(false)),
        ])
        let offer = Fixtures.offerJSON(type: .consumable, mode: .oneTime, changing: ["prices": .array([entry])])
        let report = try Fixtures.validate(Fixtures.campaignJSON(offer: offer))
        #expect(report.problems == [])
        #expect(report.campaign?.offers.first?.prices == [TerritoryPrice(territory: "USA", pricePoint: "p")])
    }

    @Test func reportsACustomCodeBatchWithBothOrNeitherSource() throws {
        let both = JSONValue.object([
            ("codes", .array([.string("BOTH1")])), ("generate", .object([("count", .integer(2))])),
            ("redemptionLimit", .integer(1)),
        ])
        let neither = JSONValue.object([("redemptionLimit", .integer(1))])
        let problems = try Fixtures.problems(
            ofOffer: Fixtures.offerJSON(
                type: .consumable, mode: .oneTime, changing: ["customCodes": .array([both, neither])]))
        #expect(problems.map(\.path) == ["$.offers[0].customCodes[0]", "$.offers[0].customCodes[1]"])
        #expect(
            problems.allSatisfy { $0.rule == "codes-or-generate" && $0.allowed?.contains("exactly one of") == true })
        #expect(problems[0].message.contains("both \"codes\" and \"generate\""))
        #expect(problems[1].message.contains("neither"))
    }

    // MARK: Lenient reading

    @Test func checksTheReadableOffersAndKeepsTheirIndex() throws {
        let broken = Fixtures.offerJSON(type: .consumable, mode: .oneTime, changing: ["paymentMode": .string("ONCE")])
        let breaksARule = Fixtures.offerJSON(
            type: .autoRenewableSubscription, mode: .freeTrial, changing: ["numberOfPeriods": .integer(2)])
        let report = try Fixtures.validate(Fixtures.campaignJSON(offers: [broken, breaksARule]))
        #expect(report.campaign == nil)
        #expect(report.problems.map(\.path) == ["$.offers[0].paymentMode", "$.offers[1].numberOfPeriods"])
        #expect(report.problems.map(\.rule) == ["invalid-value", "number-of-periods"])
    }

    @Test func throwsEveryShapeProblemButNoRuleProblem() throws {
        let offer = Fixtures.offerJSON(
            type: .consumable, mode: .freeTrial,
            changing: ["duration": .string("FOREVER"), "numberOfPeriods": .string("1")])
        let reader = CampaignReader(today: Fixtures.today)
        #expect(throws: CampaignProblems.self) {
            try reader.read(json: Fixtures.bytes(Fixtures.campaignJSON(offer: offer)))
        }
        do {
            _ = try reader.read(json: Fixtures.bytes(Fixtures.campaignJSON(offer: offer)))
        } catch {
            #expect(error.problems.map(\.rule) == ["invalid-value", "wrong-type"])
            #expect(error.problems.map(\.path) == ["$.offers[0].duration", "$.offers[0].numberOfPeriods"])
        }
        // The payment mode breaks a rule, not the shape: reading succeeds.
        let shapeOnly = Fixtures.offerJSON(type: .consumable, mode: .freeTrial)
        #expect(
            try reader.read(json: Fixtures.bytes(Fixtures.campaignJSON(offer: shapeOnly))).offers.first?.paymentMode
                == .freeTrial)
    }

    @Test func putsProblemsInDocumentOrder() throws {
        // Members in an unusual order: problems follow the file, missing members come at the end of their object.
        let text = """
            {
              "offers": [
                {"prices": [{"territory": "USA", "free": true}], "paymentMode": "FREE", "colour": 1,
                 "product": {"type": "CONSUMABLE", "id": "1", "productId": "p"}, "customerEligibilities": ["NON_SPENDER"]}
              ],
              "app": {"appAppleId": 7, "bundleId": "com.example.app"},
              "name": 5
            }
            """
        let problems = readProblems(text)
        #expect(
            problems.map(\.path) == [
                "$.offers[0].paymentMode", "$.offers[0].colour", "$.offers[0].referenceName", "$.app.appAppleId",
                "$.name",
            ])
    }
}
