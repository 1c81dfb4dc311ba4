import Foundation
import OfferCodes
import OfferJSON
import Testing

@testable import LedgerTestSupport

/// An offer's `displayName`: read into the model, every bad tag, title and shape reported with
/// the path of its entry, all at once, and the limits at their edges.
@Suite("Campaign validator: displayName")
struct DisplayNameValidationTests {
    typealias Fixtures = CampaignFixtures

    private static func titles(_ entries: [(String, JSONValue)]) -> JSONValue {
        .object(entries.map { (key: $0.0, value: $0.1) })
    }

    private func problems(displayName: JSONValue, _ more: KeyValuePairs<String, JSONValue?> = [:]) throws
        -> [ValidationProblem]
    {
        let offer = Fixtures.offerJSON(type: .consumable, mode: .oneTime, changing: ["displayName": displayName])
        return try Fixtures.problems(ofOffer: Fixtures.changing(offer, more))
    }

    // MARK: Good maps

    @Test func aGoodMapIsReadIntoTheModel() throws {
        let displayName = Self.titles([
            ("en", .string("Three months free")), ("ja", .string("3か月無料")), ("zh_hans", .string("三个月免费")),
            ("pt-BR", .string("Três meses grátis")),
        ])
        let offer = Fixtures.offerJSON(type: .consumable, mode: .oneTime, changing: ["displayName": displayName])
        let report = try Fixtures.validate(Fixtures.campaignJSON(offer: offer))
        #expect(report.problems == [], "\(report.problems.map(\.description))")
        let name = try #require(report.campaign?.offers.first?.displayName)
        #expect(
            name.titles == ["en": "Three months free", "ja": "3か月無料", "zh_hans": "三个月免费", "pt-BR": "Três meses grátis"])
        #expect(name.title(for: "zh-Hans") == "三个月免费", "tags compare case-insensitively, '_' as '-'")
        #expect(name.title(for: "PT_br") == "Três meses grátis")
        #expect(name.title(for: "ko") == nil)
        #expect(name.messageTitle(for: "ko") == "Three months free", "falls back to en")
        #expect(name.messageTitle(for: "JA") == "3か月無料")
        #expect(OfferDisplayName(["ja": "3か月無料"]).messageTitle(for: "ko") == nil)
    }

    @Test func aMissingNullOrEmptyDisplayNameIsNoTitle() throws {
        for value in [nil, JSONValue.null, .object([])] as [JSONValue?] {
            let offer = Fixtures.offerJSON(type: .consumable, mode: .oneTime, changing: ["displayName": value])
            let report = try Fixtures.validate(Fixtures.campaignJSON(offer: offer))
            #expect(report.problems == [], "\(String(describing: value)): \(report.problems)")
            #expect(report.campaign?.offers.first?.displayName == OfferDisplayName())
        }
    }

    @Test func theModelRoundTripsThroughTheCampaignFormat() async throws {
        var campaign = Fixtures.everyCombination
        campaign.offers[0].displayName = OfferDisplayName(["en": "One week free", "ko": "1주 무료"])
        let read = try CampaignReader(today: Fixtures.today).read(json: Fixtures.bytes(Fixtures.json(campaign)))
        #expect(read == campaign)
        #expect(
            try await CampaignValidator(today: Fixtures.today).validate(campaign, against: CampaignFixtureLedger())
                == [])
    }

    @Test func theLimitsHoldAtTheirEdges() throws {
        let fifty = (1...50).map { index -> (String, JSONValue) in
            ("x-\(String(repeating: "a", count: 1 + index % 8))\(index)", .string("Title \(index)"))
        }
        #expect(try problems(displayName: Self.titles(fifty)) == [])
        let longest = Self.titles([
            (String(repeating: "a", count: 35), .string(String(repeating: "é", count: 100))), ("en", .string("A")),
            ("ja", .string("３か月　無料")),
        ])
        #expect(try problems(displayName: longest) == [])
    }

    // MARK: Bad maps

    @Test func everyBadEntryIsReportedWithItsPathAllAtOnce() throws {
        let displayName = Self.titles([
            ("en", .string("Three months free")),
            ("e", .string("Too short a tag")),
            (String(repeating: "a", count: 36), .string("Too long a tag")),
            ("en US", .string("A space")),
            ("日本", .string("Not ASCII")),
            ("zh-", .string("Empty part")),
            ("EN", .string("Same as en")),
            ("En_", .string("Bad and not a repeat")),
            ("ja", .string("   ")),
            ("ko", .string(String(repeating: "가", count: 101))),
            ("fr", .string("Line one\nline two")),
            ("de", .integer(5)),
            ("it", .null),
            ("zh_Hans", .string("\t")),
        ])
        let problems = try problems(displayName: displayName, ["referenceName": .string(" ")])
        let found = problems.map { "\($0.path) \($0.rule)" }
        let base = "$.offers[0].displayName"
        let expected: [String] = [
            "$.offers[0].referenceName reference-name",
            "\(base).e display-name-language",
            "\(base).\(String(repeating: "a", count: 36)) display-name-language",
            "\(base)[\"en US\"] display-name-language",
            "\(base)[\"日本\"] display-name-language",
            "\(base)[\"zh-\"] display-name-language",
            "\(base).EN duplicate-display-name-language",
            "\(base).En_ display-name-language",
            "\(base).ja display-name-title",
            "\(base).ko display-name-title",
            "\(base).fr display-name-title",
            "\(base).de wrong-type",
            "\(base).it wrong-type",
            "\(base).zh_Hans display-name-title",
        ]
        #expect(found == expected, "\(problems.map(\.description).joined(separator: "\n"))")
        let byPath = Dictionary(problems.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let expectations: [(String, [String])] = [
            ("\(base).e", ["\"e\"", "1 character long", "2 to 35", "zh-Hans"]),
            ("\(base).\(String(repeating: "a", count: 36))", ["36 characters long"]),
            ("\(base)[\"en US\"]", ["' ' (U+0020)", "letters A-Z a-z, digits 0-9 and '-'"]),
            ("\(base)[\"日本\"]", ["'日'"]),
            ("\(base)[\"zh-\"]", ["empty part", "single '-'"]),
            ("\(base).EN", ["\"EN\" names the same language as \"en\"", "keep one title per language"]),
            ("\(base).ja", ["the title for \"ja\" is empty"]),
            ("\(base).ko", ["101 characters long", "100 or fewer"]),
            ("\(base).fr", ["U+000A", "remove it"]),
            ("\(base).de", ["expected a non-empty string", "found an integer 5", "put the value in quotes"]),
            ("\(base).it", ["found null"]),
            ("\(base).zh_Hans", ["the title for \"zh_Hans\" is empty"]),
        ]
        for (path, words) in expectations {
            let problem = try #require(byPath[path], "no problem at \(path)")
            for word in words {
                #expect(problem.message.contains(word), "\(path): \(problem.message) lacks \(word)")
            }
            #expect(problem.allowed?.isEmpty == false)
        }
        #expect(byPath["\(base).e"]?.allowed?.contains("language tag of 2-35 characters") == true)
        #expect(byPath["\(base).ko"]?.allowed?.contains("at most 100 characters") == true)
    }

    @Test func moreThanFiftyTitlesIsOneProblemOnTheObject() throws {
        let many = (1...51).map { ("l\($0)", JSONValue.string("Title \($0)")) }
        Fixtures.expectOnly(
            try problems(displayName: Self.titles(many)), rule: "display-name-count", path: "$.offers[0].displayName",
            message: ["51 titles", "at most 50"], allowed: "at most 50 titles by language tag")
    }

    @Test func aDisplayNameThatIsNotAnObjectIsAWrongType() throws {
        let text = Fixtures.expectOnly(
            try problems(displayName: .string("Three months free")), rule: "wrong-type",
            path: "$.offers[0].displayName", message: ["{\"en\": \"Three months free\"}"], allowed: "by language tag")
        #expect(text?.message.hasPrefix("expected an object") == true, "\(String(describing: text))")
        Fixtures.expectOnly(
            try problems(displayName: .array([.string("Three months free")])), rule: "wrong-type",
            path: "$.offers[0].displayName", message: ["expected an object", "found an array"])
    }

    @Test func aCampaignWhoseTitlesBreakARuleIsNotReadIntoAModel() throws {
        let offer = Fixtures.offerJSON(
            type: .consumable, mode: .oneTime, changing: ["displayName": Self.titles([("en", .string(" "))])])
        let report = try Fixtures.validate(Fixtures.campaignJSON(offer: offer))
        #expect(report.problems.map(\.rule) == ["display-name-title"])
        #expect(report.campaign == nil, "messages must not show a blank title")
        // Other rule problems leave the model to commands that only look codes up.
        let named = Fixtures.offerJSON(type: .consumable, mode: .oneTime, changing: ["referenceName": .string(" ")])
        let other = try Fixtures.validate(Fixtures.campaignJSON(offer: named))
        #expect(other.problems.map(\.rule) == ["reference-name"])
        #expect(other.campaign != nil)
    }

    @Test func aCampaignBuiltInSwiftIsCheckedToo() throws {
        var campaign = Fixtures.campaign(offers: [Fixtures.offer(type: .consumable, mode: .oneTime)])
        campaign.offers[0].displayName = OfferDisplayName(["en": "", "x": "Short tag"])
        let problems = try CampaignValidator(today: Fixtures.today).validate(campaign)
        #expect(
            Set(problems.map { "\($0.path) \($0.rule)" })
                == [
                    "$.offers[0].displayName.en display-name-title", "$.offers[0].displayName.x display-name-language",
                ],
            "\(problems)")
    }
}
