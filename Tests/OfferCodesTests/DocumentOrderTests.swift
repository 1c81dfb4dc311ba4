import OfferJSON
import Testing

@testable import OfferCodes

/// ``DocumentOrder`` indexes each object's members once; the order it gives is the one of the
/// plain algorithm that looked every member up by scanning its object (kept here as the reference).
@Suite("Document order of problems")
struct DocumentOrderTests {
    /// A campaign-like document with members out of the format's order, a repeated member name,
    /// an empty object and arrays of mixed values.
    static let document: JSONValue = .object([
        (
            "offers",
            .array([
                .object([
                    (
                        "prices",
                        .array([.object([("free", .bool(true)), ("territory", .string("USA"))]), .string("x")])
                    ),
                    ("referenceName", .string("A")),
                    ("referenceName", .string("B")),
                    ("customCodes", .array([.object([("codes", .array([.string("C1"), .string("C2")]))])])),
                ]),
                .object([]),
                .string("not an offer"),
            ])
        ),
        ("zeta", .integer(1)),
        ("name", .string("spring")),
        ("app", .object([("appAppleId", .string("1")), ("bundleId", .string("com.example.app"))])),
    ])

    /// Paths found in, missing from, and reaching through non-objects of ``document``.
    static let paths: [ProblemPath] = {
        let offers = ProblemPath.root["offers"]
        return [
            .root, offers, offers[0], offers[0]["referenceName"], offers[0]["prices"][1]["territory"],
            offers[0]["prices"][0]["territory"], offers[0]["prices"][0]["pricePoint"], offers[0]["prices"][0],
            offers[0]["paymentMode"], offers[0]["product"], offers[0]["zzz"], offers[0]["customCodes"][0]["codes"][1],
            offers[0]["customCodes"][0]["codes"][0], offers[0]["customCodes"][0]["redemptionLimit"],
            offers[0]["customCodes"][3]["codes"], offers[1]["referenceName"], offers[1]["prices"], offers[1],
            offers[2]["referenceName"], offers[2], offers[7]["product"]["id"], ProblemPath.root["name"],
            ProblemPath.root["zeta"], ProblemPath.root["app"]["bundleId"], ProblemPath.root["app"]["appAppleId"],
            ProblemPath.root["app"]["colour"], ProblemPath.root["extra"], ProblemPath.root["name"]["nested"],
            ProblemPath.root["offers"][0]["referenceName"],
        ]
    }()

    /// The findings of ``paths``, several at the same place, in a scrambled order.
    static var findings: [CampaignFinding] {
        var findings: [CampaignFinding] = []
        for (number, path) in paths.enumerated() {
            findings.append(CampaignFinding(path, rule: "rule-\(number)", "first at \(path)", allowed: nil))
        }
        for (number, path) in paths.enumerated().reversed() where number % 3 == 0 {
            findings.append(CampaignFinding(path, rule: "rule-\(number)", "second at \(path)", allowed: "a"))
        }
        return findings.enumerated().sorted { ($0.offset * 7919) % 101 < ($1.offset * 7919) % 101 }.map(\.element)
    }

    @Test func ordersLikeTheScanningAlgorithm() {
        let findings = Self.findings
        for document in [Self.document, nil] {
            let sorted = DocumentOrder.sorted(findings, document: document)
            #expect(sorted == Reference.sorted(findings, document: document))
            #expect(sorted.count == findings.count)
        }
    }

    @Test func ordersAsTheReaderMeetsTheFields() {
        let found = DocumentOrder.sorted(Self.findings, document: Self.document).map(\.path)
        let distinct = found.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        #expect(
            Array(distinct.prefix(12)) == [
                "$", "$.offers", "$.offers[0]", "$.offers[0].prices[0]", "$.offers[0].prices[0].territory",
                "$.offers[0].prices[0].pricePoint", "$.offers[0].prices[1].territory", "$.offers[0].referenceName",
                "$.offers[0].customCodes[0].codes[0]", "$.offers[0].customCodes[0].codes[1]",
                "$.offers[0].customCodes[0].redemptionLimit", "$.offers[0].customCodes[3].codes",
            ])
    }

    @Test func ordersAnObjectWithManyMembersAndProblems() {
        let count = 3_000
        let members = (0..<count).map { (key: "m\(count - $0)", value: JSONValue.object([])) }
        let document = JSONValue.object(members)
        let findings = (0..<count).map {
            CampaignFinding(ProblemPath.root["m\($0 + 1)"]["name"], rule: "r", "m\($0 + 1)", allowed: nil)
        }
        let sorted = DocumentOrder.sorted(findings, document: document)
        #expect(sorted.map(\.message) == (0..<count).map { "m\(count - $0)" })
        #expect(sorted == Reference.sorted(findings, document: document))
    }

    /// The algorithm before members were indexed: a scan of the object for each step.
    enum Reference {
        static func sorted(_ findings: [CampaignFinding], document: JSONValue?) -> [ValidationProblem] {
            let keyed = findings.enumerated().map { (key: key(for: $0.element.path, in: document), order: $0.offset) }
            let order = keyed.indices.sorted { left, right in
                let (a, b) = (keyed[left], keyed[right])
                if a.key == b.key { return a.order < b.order }
                return a.key.lexicographicallyPrecedes(b.key)
            }
            return order.map { findings[$0].problem }
        }

        static func key(for path: ProblemPath, in document: JSONValue?) -> [Int] {
            var node = document
            var key: [Int] = []
            for component in path.components {
                switch component {
                case .index(let index):
                    key += [index, 0]
                    if case .array(let elements)? = node, elements.indices.contains(index) {
                        node = elements[index]
                    } else {
                        node = nil
                    }
                case .member(let name):
                    if case .object(let members)? = node, let position = members.firstIndex(where: { $0.key == name }) {
                        key += [position, 0]
                        node = members[position].value
                    } else {
                        let count: Int
                        if case .object(let members)? = node { count = members.count } else { count = 0 }
                        key += [count, 1 + (formatOrder.firstIndex(of: name) ?? formatOrder.count)]
                        node = nil
                    }
                }
            }
            return key
        }

        static let formatOrder = [
            "name", "app", "bundleId", "appAppleId", "offers", "referenceName", "displayName", "product", "id",
            "productId", "type",
            "paymentMode", "duration", "numberOfPeriods", "customerEligibilities", "offerEligibility",
            "autoRenewEnabled", "targetSubscriptionPlanType", "prices", "territory", "pricePoint", "free",
            "oneTimeUseCodes", "customCodes", "codes", "generate", "count", "prefix", "length", "alphabet",
            "redemptionLimit", "expirationDate", "environment",
        ]
    }
}
