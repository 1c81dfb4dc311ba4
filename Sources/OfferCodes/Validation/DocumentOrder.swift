import OfferSigning

/// Puts problems in the order a reader of the file meets them.
///
/// A member that is in the document sorts by its position there; one that is not (a missing
/// member) sorts after the members its object has, in the order the campaign format lists
/// fields. Without a document (a campaign built in Swift) the format's order is used throughout.
/// A problem about a whole object or array comes before the problems inside it.
enum DocumentOrder {
    /// The problems, in document order; problems at the same place keep the order they were found in.
    static func sorted(_ findings: [CampaignFinding], document: JSONValue?) -> [ValidationProblem] {
        let keyed = findings.enumerated().map { (key: key(for: $0.element.path, in: document), order: $0.offset) }
        let order = keyed.indices.sorted { left, right in
            let (a, b) = (keyed[left], keyed[right])
            if a.key == b.key { return a.order < b.order }
            return a.key.lexicographicallyPrecedes(b.key)
        }
        return order.map { findings[$0].problem }
    }

    /// Two numbers per path step: the position in the document, then (for members not in it) the
    /// field's place in the format.
    private static func key(for path: ProblemPath, in document: JSONValue?) -> [Int] {
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
                    key += [count, 1 + formatRank(name)]
                    node = nil
                }
            }
        }
        return key
    }

    /// The campaign format's field order (names shared by several objects keep one consistent place).
    private static let formatOrder = [
        "name", "app", "bundleId", "appAppleId", "offers", "referenceName", "product", "id", "productId", "type",
        "paymentMode", "duration", "numberOfPeriods", "customerEligibilities", "offerEligibility",
        "autoRenewEnabled", "targetSubscriptionPlanType", "prices", "territory", "pricePoint", "free",
        "oneTimeUseCodes", "customCodes", "codes", "generate", "count", "prefix", "length", "alphabet",
        "redemptionLimit", "expirationDate", "environment",
    ]

    private static func formatRank(_ name: String) -> Int {
        formatOrder.firstIndex(of: name) ?? formatOrder.count
    }
}
