import Foundation
import OfferCodes
import OfferJSON
import Testing

@testable import LedgerTestSupport

/// A campaign file's enumerated values (product types, payment modes, durations, eligibilities,
/// plan types, environments) are read in any case and planned in App Store Connect's spelling.
@Suite("Campaign spelling")
struct CampaignSpellingTests {
    /// The members whose values are App Store Connect's enumerations.
    static let enumerated: Set<String> = [
        "type", "paymentMode", "duration", "offerEligibility", "targetSubscriptionPlanType", "environment",
        "customerEligibilities",
    ]

    static let example: JSONValue = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/campaign.json")
        guard let data = try? Data(contentsOf: url), let json = try? JSONValue.parse([UInt8](data)) else {
            preconditionFailure("examples/campaign.json cannot be read")
        }
        return json
    }()

    static let today = CalendarDate(year: 2027, month: 3, day: 15)!

    /// `json` with every enumerated value respelled by `spell`.
    static func respelled(_ json: JSONValue, key: String? = nil, _ spell: (String) -> String) -> JSONValue {
        switch json {
        case .object(let members):
            return .object(members.map { ($0.key, respelled($0.value, key: $0.key, spell)) })
        case .array(let elements):
            return .array(elements.map { respelled($0, key: key, spell) })
        case .string(let text) where key.map(enumerated.contains) == true:
            return .string(spell(text))
        default:
            return json
        }
    }

    /// `text` with its letters alternately lower- and upper-case: `pAy_aS_YoU_Go`.
    static func mixed(_ text: String) -> String {
        String(text.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.lowercased()) : $0.element })
    }

    static func plan(_ json: JSONValue) throws -> (Campaign, JSONValue) {
        let report = try CampaignValidator(today: today).validate(json: json.serialized())
        #expect(report.problems == [], "\(report.problems.map(\.description))")
        let campaign = try report.validCampaign()
        let requests = try RequestPlanner().plan(campaign, customCodes: PlannerFixtures.ledgerCodes(campaign))
        return (campaign, RequestPlanner.document(campaign: campaign, requests: requests))
    }

    @Test(
        "lower-case, capitalized and mixed-case values are the campaign Apple's spelling describes",
        arguments: ["lower", "capitalized", "mixed"])
    func anyCase(style: String) throws {
        let spell: (String) -> String =
            switch style {
            case "lower": { $0.lowercased() }
            case "capitalized": { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
            default: Self.mixed
            }
        let respelled = Self.respelled(Self.example, spell)
        #expect(respelled != Self.example, "the example has enumerated values to respell")
        let (campaign, document) = try Self.plan(respelled)
        let (expected, expectedDocument) = try Self.plan(Self.example)
        #expect(campaign == expected)
        // The requests for App Store Connect carry its own spelling: the same bytes as from the original.
        #expect(document.serialized() == expectedDocument.serialized())
        #expect(document.text().contains("\"PAY_AS_YOU_GO\"") && !document.text().contains("\"pay_as_you_go\""))
    }

    @Test("a value that is no spelling is a problem naming the path, showing the value and the choices")
    func unknownValue() throws {
        var text = Self.example.text()
        text = text.replacingOccurrences(of: "\"SANDBOX\"", with: "\"staging\"")
        let report = try CampaignValidator(today: Self.today).validate(json: Array(text.utf8))
        let problem = try #require(report.problems.first { $0.path.hasSuffix(".environment") })
        #expect(problem.rule == "invalid-value")
        #expect(problem.message.contains("\"staging\""), "\(problem)")
        #expect(problem.allowed == "one of PRODUCTION, SANDBOX (in any case)", "\(problem)")
    }
}
