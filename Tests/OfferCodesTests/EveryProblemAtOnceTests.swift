import Foundation
import InteropSupport
import OfferCodes
import OfferJSON
import OfferSigning
import Testing

@testable import LedgerTestSupport

/// One validation run shows every problem a second run would: a shape problem in an offer (an
/// unknown member, a price entry with both `pricePoint` and `"free": true`, a missing member, a
/// wrong type) no longer hides that offer's rule problems.
///
/// The property: take a valid campaign, break it with defects (shape and rule problems, several in
/// one offer), validate, then fix exactly the reported problems (each reported path is put back
/// as in the valid campaign) and validate again. The second run may only report problems that a
/// reported problem legitimately hid, because a rule needs the unreadable part (a payment mode
/// that is not one hides the rules about payment modes); a third run reports nothing.
@Suite("Every problem at once")
struct EveryProblemAtOnceTests {
    typealias Fixtures = CampaignFixtures

    // MARK: The four cases from the issue

    @Test func anUnknownMemberDoesNotHideABadDuration() throws {
        let found = try Self.check(offers: [["unknown-member", "duration"]])
        #expect(found.contains("unknown-member $.offers[0].colour"))
        #expect(found.contains("duration-for-product-type $.offers[0].duration"))
    }

    @Test func aPriceWithFreeAndPricePointDoesNotHideABadEligibility() throws {
        let found = try Self.check(offers: [["price-and-free", "eligibility"]])
        #expect(found.contains("price-or-free $.offers[0].prices[0]"))
        #expect(found.contains("customer-eligibility-for-product-type $.offers[0].customerEligibilities[1]"))
        #expect(found.contains("duplicate-customer-eligibility $.offers[0].customerEligibilities[2]"))
    }

    @Test func aMissingRedemptionLimitDoesNotHideABadCustomCode() throws {
        let found = try Self.check(offers: [["no-redemption-limit", "custom-code"]])
        #expect(found.contains("missing-member $.offers[0].customCodes[0].redemptionLimit"))
        #expect(found.contains("custom-code-format $.offers[0].customCodes[0].codes[0]"))
    }

    @Test func aWrongTypeInOneOfferDoesNotHideRuleProblemsInAnother() throws {
        let found = try Self.check(offers: [["wrong-type", "periods"], ["expiry", "prefix", "reference-name"]])
        #expect(found.contains("wrong-type $.offers[0].autoRenewEnabled"))
        #expect(found.contains("number-of-periods $.offers[0].numberOfPeriods"))
        #expect(found.contains("one-time-use-expiry $.offers[1].oneTimeUseCodes[0].expirationDate"))
        #expect(found.contains("generate-prefix $.offers[1].customCodes[1].generate.prefix"))
        #expect(found.contains("reference-name $.offers[1].referenceName"))
    }

    @Test func aPaymentModeThatIsNotOneHidesOnlyTheRulesThatNeedIt() throws {
        let found = try Self.check(offers: [["bad-payment-mode", "periods", "duration", "custom-code"]])
        #expect(found.contains("invalid-value $.offers[0].paymentMode"))
        #expect(found.contains("duration-for-product-type $.offers[0].duration"))
        #expect(!found.contains("number-of-periods $.offers[0].numberOfPeriods"))
    }

    // MARK: The property, on random campaigns

    @Test func fixingTheReportedProblemsLeavesNothingTheFirstRunShouldHaveReported() throws {
        var random = SplitMix64(seed: 20_270_315)
        var combined = 0
        for _ in 0..<300 {
            let offerCount = Int.random(in: 1...3, using: &random)
            var offers: [[String]] = []
            for _ in 0..<offerCount {
                var slots: Set<String> = []
                var chosen: [String] = []
                for defect in Self.catalogue.shuffled(using: &random)
                where Double.random(in: 0..<1, using: &random) < 0.3 {
                    guard slots.insert(defect.slot).inserted else { continue }
                    chosen.append(defect.id)
                }
                if chosen.contains(where: { Self.defect($0).isShape })
                    && chosen.contains(where: { !Self.defect($0).isShape })
                {
                    combined += 1
                }
                offers.append(chosen)
            }
            try Self.check(offers: offers)
        }
        #expect(combined > 100, "too few offers combine shape and rule problems: \(combined)")
    }

    // MARK: Defects

    /// A way to break a valid FREE_TRIAL subscription offer, with the problems it causes.
    struct Defect: Sendable {
        let id: String
        /// Defects with the same slot change the same part; an offer gets at most one of them.
        let slot: String
        /// Whether the defect is a shape problem (the reader finds it).
        let isShape: Bool
        /// Where to change the offer, and the new value (`nil` removes the member).
        let edits: [(path: [Step], value: JSONValue?)]
        /// The problems it causes: path in the offer, and rule.
        let problems: [(path: [Step], rule: String)]
        /// Shape defects that hide this defect's problems (a rule needs the part they break).
        var hiddenBy: Set<String> = []
    }

    static let catalogue: [Defect] = [
        // Shape problems.
        Defect(
            id: "unknown-member", slot: "colour", isShape: true, edits: [(["colour"], .string("red"))],
            problems: [(["colour"], "unknown-member")]),
        Defect(
            id: "price-and-free", slot: "prices[0]", isShape: true,
            edits: [
                (
                    ["prices", 0],
                    .object([
                        ("territory", .string("USA")), ("pricePoint", .string("USA-10002")), ("free", .bool(true)),
                    ])
                )
            ], problems: [(["prices", 0], "price-or-free")]),
        Defect(
            id: "no-redemption-limit", slot: "customCodes[0].redemptionLimit", isShape: true,
            edits: [(["customCodes", 0, "redemptionLimit"], nil)],
            problems: [(["customCodes", 0, "redemptionLimit"], "missing-member")]),
        Defect(
            id: "wrong-type", slot: "autoRenewEnabled", isShape: true, edits: [(["autoRenewEnabled"], .string("true"))],
            problems: [(["autoRenewEnabled"], "wrong-type")]),
        Defect(
            id: "no-product-id", slot: "product.productId", isShape: true, edits: [(["product", "productId"], nil)],
            problems: [(["product", "productId"], "missing-member")]),
        Defect(
            id: "bad-environment", slot: "oneTimeUseCodes[0].environment", isShape: true,
            edits: [(["oneTimeUseCodes", 0, "environment"], .string("PROD"))],
            problems: [(["oneTimeUseCodes", 0, "environment"], "invalid-value")]),
        Defect(
            id: "bad-payment-mode", slot: "paymentMode", isShape: true,
            edits: [(["paymentMode"], .string("FREE_TRIALS"))],
            problems: [(["paymentMode"], "invalid-value")]),
        Defect(
            id: "length-wrong-type", slot: "customCodes[1].generate.length", isShape: true,
            edits: [(["customCodes", 1, "generate", "length"], .string("8"))],
            problems: [(["customCodes", 1, "generate", "length"], "wrong-type")]),
        // A shape and a rule problem in one list.
        Defect(
            id: "eligibility-not-one", slot: "customerEligibilities", isShape: true,
            edits: [(["customerEligibilities"], .array([.string("NEW"), .string("NEWBIE"), .string("NEW")]))],
            problems: [
                (["customerEligibilities", 1], "invalid-value"),
                (["customerEligibilities", 2], "duplicate-customer-eligibility"),
            ]),
        Defect(
            id: "code-not-string", slot: "customCodes[0].codes", isShape: true,
            edits: [(["customCodes", 0, "codes"], .array([.string("spring #"), .integer(7)]))],
            problems: [
                (["customCodes", 0, "codes", 0], "custom-code-format"), (["customCodes", 0, "codes", 1], "wrong-type"),
            ]),
        // Rule problems.
        Defect(
            id: "duration", slot: "duration", isShape: false, edits: [(["duration"], nil)],
            problems: [(["duration"], "duration-for-product-type")]),
        Defect(
            id: "eligibility", slot: "customerEligibilities", isShape: false,
            edits: [(["customerEligibilities"], .array([.string("NEW"), .string("NON_SPENDER"), .string("NEW")]))],
            problems: [
                (["customerEligibilities", 1], "customer-eligibility-for-product-type"),
                (["customerEligibilities", 2], "duplicate-customer-eligibility"),
            ]),
        Defect(
            id: "custom-code", slot: "customCodes[0].codes", isShape: false,
            edits: [(["customCodes", 0, "codes", 0], .string("spring #"))],
            problems: [(["customCodes", 0, "codes", 0], "custom-code-format")]),
        Defect(
            id: "expiry", slot: "oneTimeUseCodes[0].expirationDate", isShape: false,
            edits: [(["oneTimeUseCodes", 0, "expirationDate"], .string("P7M"))],
            problems: [(["oneTimeUseCodes", 0, "expirationDate"], "one-time-use-expiry")]),
        Defect(
            id: "reference-name", slot: "referenceName", isShape: false,
            edits: [(["referenceName"], .string("Trial #\u{7}"))],
            problems: [(["referenceName"], "reference-name")]),
        Defect(
            id: "periods", slot: "numberOfPeriods", isShape: false, edits: [(["numberOfPeriods"], .integer(3))],
            problems: [(["numberOfPeriods"], "number-of-periods")], hiddenBy: ["bad-payment-mode"]),
        Defect(
            id: "prefix", slot: "customCodes[1].generate.prefix", isShape: false,
            edits: [(["customCodes", 1, "generate", "prefix"], .string("ab"))],
            problems: [(["customCodes", 1, "generate", "prefix"], "generate-prefix")]),
        Defect(
            id: "territory", slot: "prices[1].territory", isShape: false,
            edits: [(["prices", 1, "territory"], .string("jpn"))],
            problems: [(["prices", 1, "territory"], "territory-code")]),
        Defect(
            id: "redemption-limit", slot: "customCodes[1].redemptionLimit", isShape: false,
            edits: [(["customCodes", 1, "redemptionLimit"], .integer(0))],
            problems: [(["customCodes", 1, "redemptionLimit"], "redemption-limit")]),
        Defect(
            id: "custom-expiry", slot: "customCodes[0].expirationDate", isShape: false,
            edits: [(["customCodes", 0, "expirationDate"], .string(Fixtures.today.description))],
            problems: [(["customCodes", 0, "expirationDate"], "custom-code-expiry")]),
        Defect(
            id: "empty-product-id", slot: "product.id", isShape: false, edits: [(["product", "id"], .string(""))],
            problems: [(["product", "id"], "empty-value")]),
    ]

    static func defect(_ id: String) -> Defect {
        guard let defect = catalogue.first(where: { $0.id == id }) else { preconditionFailure("no defect \(id)") }
        return defect
    }

    // MARK: Checking

    /// A valid campaign of FREE_TRIAL subscription offers, each with its own name and custom code.
    static func validCampaign(offers count: Int) -> JSONValue {
        let offers = (0..<count).map { index in
            var offer = Fixtures.offerJSON(
                type: .autoRenewableSubscription, mode: .freeTrial, referenceName: "Trial \(index)")
            offer = setting(offer, at: ["customCodes", 0, "codes", 0], to: .string("TRIAL\(index)2027"))
            offer = setting(offer, at: ["customCodes", 1, "generate", "prefix"], to: .string("T\(index)"))
            return offer
        }
        return Fixtures.campaignJSON(offers: offers)
    }

    /// Breaks a valid campaign with the defects of each offer, then checks the property; returns
    /// the first run's problems as "rule path".
    @discardableResult
    static func check(offers: [[String]], sourceLocation: SourceLocation = #_sourceLocation) throws -> Set<String> {
        let valid = validCampaign(offers: offers.count)
        #expect(try Fixtures.validate(valid).problems.isEmpty, sourceLocation: sourceLocation)
        var broken = valid
        var expected: Set<String> = []
        var hidden: Set<String> = []
        for (index, ids) in offers.enumerated() {
            let offerPath: [Step] = ["offers", .index(index)]
            for defect in ids.map(Self.defect) {
                for edit in defect.edits {
                    broken = setting(broken, at: offerPath + edit.path, to: edit.value.map { numbered($0, index) })
                }
                let problems = Set(defect.problems.map { "\($0.rule) \(text(offerPath + $0.path))" })
                if defect.hiddenBy.isDisjoint(with: ids) {
                    expected.formUnion(problems)
                } else {
                    hidden.formUnion(problems)
                }
            }
        }
        let label = "offers: \(offers)"
        let first = try Fixtures.validate(broken).problems
        let firstFound = Set(first.map { "\($0.rule) \($0.path)" })
        #expect(
            firstFound == expected,
            """
            missing: \(expected.subtracting(firstFound).sorted()), \
            unexpected: \(firstFound.subtracting(expected).sorted()); \(label)
            """, sourceLocation: sourceLocation)

        // Fix exactly what was reported, then validate again.
        let fixed = try fixing(first, in: broken, from: valid)
        let second = try Fixtures.validate(fixed).problems
        let secondFound = Set(second.map { "\($0.rule) \($0.path)" })
        #expect(
            secondFound.isSubset(of: hidden),
            "the second run found what the first should have: \(secondFound.subtracting(hidden)); \(label)",
            sourceLocation: sourceLocation)
        let third = try Fixtures.validate(try fixing(second, in: fixed, from: valid)).problems
        #expect(third.isEmpty, "\(third.map(\.description)); \(label)", sourceLocation: sourceLocation)
        return firstFound
    }

    /// `value` with each "#" in its strings replaced by the offer's index, so that offers with the
    /// same defect do not also repeat each other's names and codes.
    static func numbered(_ value: JSONValue, _ index: Int) -> JSONValue {
        switch value {
        case .string(let text): .string(text.replacingOccurrences(of: "#", with: "\(index)"))
        case .array(let elements): .array(elements.map { numbered($0, index) })
        default: value
        }
    }

    /// `document` with the place of each problem put back as in `valid` (removed where `valid`
    /// has nothing there), later places first so that indexes stay right.
    static func fixing(_ problems: [ValidationProblem], in document: JSONValue, from valid: JSONValue) throws
        -> JSONValue
    {
        var fixed = document
        for problem in problems.reversed() {
            let path = try #require(parse(problem.path), "unexpected path \(problem.path)")
            try #require(path.count >= 3, "a problem beyond one offer: \(problem)")
            fixed = setting(fixed, at: path, to: value(at: path, in: valid))
        }
        return fixed
    }

    // MARK: Paths in documents

    enum Step: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        case member(String)
        case index(Int)

        init(stringLiteral value: String) { self = .member(value) }
        init(integerLiteral value: Int) { self = .index(value) }
    }

    static func text(_ path: [Step]) -> String {
        "$"
            + path.map {
                switch $0 {
                case .member(let name): "." + name
                case .index(let index): "[\(index)]"
                }
            }.joined()
    }

    /// The steps of a path such as `$.offers[0].prices[1].territory`, or `nil`.
    static func parse(_ text: String) -> [Step]? {
        guard text.hasPrefix("$") else { return nil }
        var steps: [Step] = []
        var rest = Substring(text.dropFirst())
        while let first = rest.first {
            if first == "." {
                let name = rest.dropFirst().prefix { $0 != "." && $0 != "[" }
                steps.append(.member(String(name)))
                rest = rest.dropFirst(1 + name.count)
            } else if first == "[" {
                guard let close = rest.firstIndex(of: "]"),
                    let index = Int(rest[rest.index(after: rest.startIndex)..<close])
                else { return nil }
                steps.append(.index(index))
                rest = rest[rest.index(after: close)...]
            } else {
                return nil
            }
        }
        return steps
    }

    static func value(at path: [Step], in document: JSONValue) -> JSONValue? {
        guard let step = path.first else { return document }
        switch (step, document) {
        case (.member(let name), .object(let members)):
            return members.first(where: { $0.key == name }).flatMap { value(at: Array(path.dropFirst()), in: $0.value) }
        case (.index(let index), .array(let elements)) where elements.indices.contains(index):
            return value(at: Array(path.dropFirst()), in: elements[index])
        default:
            return nil
        }
    }

    /// `document` with the value at `path` replaced (added at the end of its object when new, or
    /// removed when `newValue` is `nil`).
    static func setting(_ document: JSONValue, at path: [Step], to newValue: JSONValue?) -> JSONValue {
        guard let step = path.first else { return newValue ?? .null }
        let rest = Array(path.dropFirst())
        switch (step, document) {
        case (.member(let name), .object(var members)):
            if let position = members.firstIndex(where: { $0.key == name }) {
                if rest.isEmpty, newValue == nil {
                    members.remove(at: position)
                } else {
                    members[position].value = setting(members[position].value, at: rest, to: newValue)
                }
            } else if rest.isEmpty, let newValue {
                members.append((name, newValue))
            }
            return .object(members)
        case (.index(let index), .array(var elements)) where elements.indices.contains(index):
            if rest.isEmpty, newValue == nil {
                elements.remove(at: index)
            } else {
                elements[index] = setting(elements[index], at: rest, to: newValue)
            }
            return .array(elements)
        case (.index(let index), .array(var elements)) where index == elements.count && rest.isEmpty:
            if let newValue { elements.append(newValue) }
            return .array(elements)
        default:
            return document
        }
    }
}
