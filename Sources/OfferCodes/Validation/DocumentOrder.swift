import OfferJSON

/// Puts problems in the order a reader of the file meets them.
///
/// A member that is in the document sorts by its position there; one that is not (a missing
/// member) sorts after the members its object has, in the order the campaign format lists
/// fields. Without a document (a campaign built in Swift) the format's order is used throughout.
/// A problem about a whole object or array comes before the problems inside it.
///
/// Each object's members are indexed once (by name), so ordering n problems costs
/// O(n · path depth) lookups plus an O(n log n) sort, however many members the objects have.
enum DocumentOrder {
    /// The problems, in document order; problems at the same place keep the order they were found in.
    static func sorted(_ findings: [CampaignFinding], document: JSONValue?) -> [ValidationProblem] {
        var keys = SortKeys(document: document)
        let keyed = findings.enumerated().map { (key: keys.key(for: $0.element.path), order: $0.offset) }
        let order = keyed.indices.sorted { left, right in
            let (a, b) = (keyed[left], keyed[right])
            if a.key == b.key { return a.order < b.order }
            return a.key.lexicographicallyPrecedes(b.key)
        }
        return order.map { findings[$0].problem }
    }

    /// The sort keys of paths in one document, with each object's member positions indexed once.
    private struct SortKeys {
        let document: JSONValue?
        /// The position of each member (the first of a name) of the objects looked into so far, by
        /// the key of the object's own place: a key made only of positions found in the document
        /// names exactly one node.
        private var memberPositions: [[Int]: [String: Int]] = [:]

        init(document: JSONValue?) {
            self.document = document
        }

        /// Two numbers per path step: the position in the document, then (for members not in it)
        /// the field's place in the format.
        mutating func key(for path: ProblemPath) -> [Int] {
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
                    guard case .object(let members)? = node else {
                        key += [0, 1 + DocumentOrder.formatRank(name)]
                        node = nil
                        continue
                    }
                    if let position = positions(of: members, at: key)[name] {
                        key += [position, 0]
                        node = members[position].value
                    } else {
                        key += [members.count, 1 + DocumentOrder.formatRank(name)]
                        node = nil
                    }
                }
            }
            return key
        }

        /// The member positions of the object whose key is `key`, indexed on first use.
        private mutating func positions(of members: [(key: String, value: JSONValue)], at key: [Int]) -> [String: Int] {
            if let known = memberPositions[key] { return known }
            var positions: [String: Int] = [:]
            positions.reserveCapacity(members.count)
            for (position, member) in members.enumerated() where positions[member.key] == nil {
                positions[member.key] = position
            }
            memberPositions[key] = positions
            return positions
        }
    }

    /// The campaign format's field order (names shared by several objects keep one consistent place).
    private static let formatOrder = [
        "name", "app", "bundleId", "appAppleId", "offers", "promotionalOffers", "introductoryOffers", "winBackOffers",
        "referenceName", "offerIdentifier", "displayName", "product", "subscription", "id", "productId", "type",
        "period", "paymentMode", "duration", "numberOfPeriods", "customerEligibilities", "customerEligibility",
        "paidSubscriptionDurationInMonths", "timeSinceLastSubscribedInMonths", "minimum", "maximum",
        "waitBetweenOffersInMonths", "offerEligibility", "autoRenewEnabled", "targetSubscriptionPlanType", "startDate",
        "endDate", "priority", "promotionIntent", "prices", "territory", "pricePoint", "customerPrice", "free",
        "oneTimeUseCodes", "customCodes", "codes", "generate", "count", "prefix", "length", "alphabet",
        "redemptionLimit", "expirationDate", "environment",
    ]

    /// Each field's place in ``formatOrder``.
    private static let formatRanks: [String: Int] = Dictionary(
        formatOrder.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })

    private static func formatRank(_ name: String) -> Int {
        formatRanks[name] ?? formatOrder.count
    }
}
