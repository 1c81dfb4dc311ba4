import Foundation
import OfferJSON
import OfferSigning

extension RetentionRules {
    /// Reads rules from JSON text: an array of rule objects.
    /// - Parameters:
    ///   - json: the JSON text's bytes (UTF-8).
    ///   - path: how errors name the array, such as `retention.apps["com.example.app"]`.
    /// - Throws: ``RetentionRulesError`` naming the first field at fault.
    public init(json: [UInt8], path: String = "rules") throws(RetentionRulesError) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(json)
        } catch {
            throw .invalid(path: path, expected: "JSON", found: "text that is not: \(error.message)")
        }
        try self.init(parsing: value, path: path)
    }

    /// Reads rules from parsed JSON: an array of at most ``maximumCount`` rule objects, each with
    /// `productId` and `locale` (both optional) and exactly one decision member. Unknown members
    /// are refused, so that a misspelt member cannot be ignored.
    package init(parsing json: JSONValue, path: String) throws(RetentionRulesError) {
        guard case .array(let elements) = json else {
            throw .invalid(path: path, expected: "an array of rules", found: Self.describe(json))
        }
        guard elements.count <= Self.maximumCount else {
            throw .tooManyRules(path: path, count: elements.count, limit: Self.maximumCount)
        }
        var rules: [RetentionRule] = []
        rules.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            rules.append(try Self.rule(element, path: "\(path)[\(index)]"))
        }
        self.rules = rules
    }

    static let decisionMembers = ["message", "alternateProduct", "promotionalOffer", "advancedCommerceInfo"]

    private static func rule(_ json: JSONValue, path: String) throws(RetentionRulesError) -> RetentionRule {
        let members = try object(json, path: path, allowed: ["productId", "locale"] + decisionMembers)
        let decisions = members.filter { decisionMembers.contains($0.key) }
        guard decisions.count == 1, let (name, value) = decisions.first.map({ ($0.key, $0.value) }) else {
            throw .invalid(
                path: path,
                expected: "exactly one of message, alternateProduct, promotionalOffer, advancedCommerceInfo",
                found: decisions.isEmpty ? "none" : decisions.map(\.key).joined(separator: " and "))
        }
        var productId: String?
        var locale: String?
        if let value = members.first(where: { $0.key == "productId" })?.value {
            productId = try identifier(value, path: "\(path).productId")
        }
        if let value = members.first(where: { $0.key == "locale" })?.value {
            locale = try localePrefix(value, path: "\(path).locale")
        }
        let decision = try Self.decision(name, value, path: "\(path).\(name)")
        return RetentionRule(productId: productId, locale: locale, decision: decision)
    }

    private static func decision(_ name: String, _ json: JSONValue, path: String) throws(RetentionRulesError)
        -> RetentionDecision
    {
        switch name {
        case "message":
            let members = try object(json, path: path, allowed: ["messageIdentifier"])
            return .message(messageIdentifier: try messageIdentifier(members, path: path))
        case "alternateProduct":
            let members = try object(json, path: path, allowed: ["messageIdentifier", "productId", "billingPlanType"])
            let messageIdentifier = try messageIdentifier(members, path: path)
            let productId = try identifier(try required(members, "productId", path: path), path: "\(path).productId")
            var billingPlanType: BillingPlanType?
            if let value = member(members, "billingPlanType") {
                billingPlanType = try oneOf(value, path: "\(path).billingPlanType")
            }
            return .alternateProduct(
                messageIdentifier: messageIdentifier, productId: productId, billingPlanType: billingPlanType)
        case "promotionalOffer":
            let members = try object(
                json, path: path, allowed: ["messageIdentifier", "productId", "offerIdentifier", "signature"])
            let messageIdentifier = try messageIdentifier(members, path: path)
            let productId = try identifier(try required(members, "productId", path: path), path: "\(path).productId")
            let offerIdentifier = try identifier(
                try required(members, "offerIdentifier", path: path), path: "\(path).offerIdentifier")
            let signature: PromotionalOfferSignatureVersion = try oneOf(
                try required(members, "signature", path: path, expected: #""v1" or "v2""#), path: "\(path).signature")
            return .promotionalOffer(
                messageIdentifier: messageIdentifier, productId: productId, offerIdentifier: offerIdentifier,
                signature: signature)
        default:
            let members = try object(json, path: path, allowed: ["messageIdentifier", "request"])
            let messageIdentifier = try messageIdentifier(members, path: path)
            let request = try advancedCommerceRequest(
                try required(members, "request", path: path), path: "\(path).request")
            return .advancedCommerceInfo(messageIdentifier: messageIdentifier, request: request)
        }
    }

    // MARK: - Members

    /// The members of an object, each name one of `allowed`.
    static func object(_ json: JSONValue, path: String, allowed: [String]) throws(RetentionRulesError)
        -> [(key: String, value: JSONValue)]
    {
        guard case .object(let members) = json else {
            throw .invalid(path: path, expected: "an object", found: describe(json))
        }
        for (name, _) in members where !allowed.contains(name) {
            throw .invalid(
                path: "\(path).\(name)", expected: "one of \(allowed.joined(separator: ", "))",
                found: "an unknown member")
        }
        return members
    }

    private static func member(_ members: [(key: String, value: JSONValue)], _ name: String) -> JSONValue? {
        members.first(where: { $0.key == name })?.value
    }

    private static func required(
        _ members: [(key: String, value: JSONValue)], _ name: String, path: String, expected: String? = nil
    ) throws(RetentionRulesError) -> JSONValue {
        guard let value = member(members, name) else {
            throw .invalid(path: "\(path).\(name)", expected: expected ?? "a value", found: "nothing (it is missing)")
        }
        return value
    }

    private static func messageIdentifier(_ members: [(key: String, value: JSONValue)], path: String)
        throws(RetentionRulesError) -> UUID
    {
        let value = try required(
            members, "messageIdentifier", path: path, expected: "the UUID of a message uploaded to Apple")
        guard case .string(let text) = value, text.utf8.count == 36, let uuid = UUID(uuidString: text) else {
            throw .invalid(
                path: "\(path).messageIdentifier",
                expected: "the UUID of a message uploaded to Apple, such as 7c9e6679-7425-40de-944b-e07fc1f90ae7",
                found: describe(value))
        }
        return uuid
    }

    /// A product ID or offer identifier: non-empty text without control characters or U+2063,
    /// the signing library's rule for identifiers.
    private static func identifier(_ json: JSONValue, path: String) throws(RetentionRulesError) -> String {
        guard case .string(let text) = json, !text.isEmpty, Check.isPlainText(text.utf8) else {
            throw .invalid(
                path: path, expected: "a non-empty string without control characters or U+2063", found: describe(json))
        }
        return text
    }

    /// A locale prefix: subtags of 1–8 letters or digits joined by `-`, at most 35 characters.
    private static func localePrefix(_ json: JSONValue, path: String) throws(RetentionRulesError) -> String {
        if case .string(let text) = json, (1...35).contains(text.utf8.count),
            text.split(separator: "-", omittingEmptySubsequences: false).allSatisfy({ subtag in
                (1...8).contains(subtag.utf8.count) && subtag.utf8.allSatisfy(\.isASCIIAlphanumeric)
            })
        {
            return text
        }
        throw .invalid(
            path: path, expected: "a locale or its prefix, such as \"en\" or \"en-US\" (subtags joined by '-')",
            found: describe(json))
    }

    /// The value `json` spells in any case (``EnumeratedValue``, the reader of every input).
    private static func oneOf<Value: EnumeratedValue>(_ json: JSONValue, path: String)
        throws(RetentionRulesError) -> Value
    {
        guard case .string(let text) = json else {
            throw .invalid(
                path: path, expected: EnumeratedSpelling.list(Value.spellings) + " (in any case)", found: describe(json)
            )
        }
        do {
            return try Value.read(text, field: path)
        } catch {
            throw .invalid(path: path, expected: error.expected, found: error.given)
        }
    }

    /// A value for a message: a string quoted (clipped, control characters shown as `?`), a
    /// number with its text, anything else by its type.
    static func describe(_ json: JSONValue) -> String {
        switch json {
        case .string(let text):
            let printable = String(
                text.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : Character($0) })
            return "\"" + (printable.count > 48 ? String(printable.prefix(48)) + "…" : printable) + "\""
        case .number(let text): return "\(json.typeName) \(text.prefix(24))"
        default: return json.typeName
        }
    }
}
