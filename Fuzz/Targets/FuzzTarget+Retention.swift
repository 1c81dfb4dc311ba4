import OfferJSON
import OfferRetentionEndpoint
import OfferSigning

extension FuzzTarget {
    /// `RetentionRules(json:path:)`: the rules of a service configuration's `retention.apps`. Read
    /// rules are at most 1,000, each with a decision whose identifiers pass the signing library's
    /// rule and whose Advanced Commerce request is a single change; a refusal names its path first
    /// and stays bounded.
    static func fuzzRetentionRules(_ input: [UInt8]) {
        let rules: RetentionRules
        do {
            rules = try RetentionRules(json: input, path: "rules")
        } catch {
            let message = error.errorDescription ?? ""
            check(message.hasPrefix(error.path), "a refusal does not start with its path: \(message.prefix(200))")
            check(error.path.hasPrefix("rules"), "a refusal's path is not under the rules: \(error.path.prefix(200))")
            check(message.count <= 4_000, "an unbounded message: \(message.count) characters")
            return
        }
        check(rules.rules.count <= RetentionRules.maximumCount, "more rules than the limit were read")
        for rule in rules.rules {
            switch rule.decision {
            case .promotionalOffer(_, let productId, let offerIdentifier, _, let appAccountToken):
                check(isIdentifier(productId) && isIdentifier(offerIdentifier), "an offer with a bad identifier")
                check(appAccountToken == nil, "a rule with an appAccountToken (only a decider knows one)")
            case .alternateProduct(_, let productId, _):
                check(isIdentifier(productId), "an alternate product with a bad product ID")
            case .advancedCommerceInfo(_, let request):
                check(
                    request.changeItems?.count == 1 && request.addItems == nil && request.removeItems == nil,
                    "an Advanced Commerce request that is not a single change")
            case .message: break
            case .default: check(false, "a rule read as the default decision")
            }
            if let productId = rule.productId { check(isIdentifier(productId), "a rule with a bad product ID") }
        }
    }

    /// `RealtimeRequestBody.signedPayload(in:)`: the body the App Store posts. A payload is read
    /// only from at most 64 KiB of a JSON object with the one member `signedPayload`, and the body
    /// written back around it reads to the same payload.
    static func fuzzRealtimeRequestBody(_ input: [UInt8]) {
        guard let payload = RealtimeRequestBody.signedPayload(in: input) else { return }
        check(input.count <= RealtimeRequestBody.maximumBytes, "a body over the limit was read")
        guard case .object(let members)? = try? JSONValue.parse(input), members.count == 1 else {
            check(false, "a body that is not an object of one member was read")
            return
        }
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("signedPayload", payload)
        writer.endObject()
        if writer.bytes.count <= RealtimeRequestBody.maximumBytes {
            check(RealtimeRequestBody.signedPayload(in: writer.bytes) == payload, "the payload does not read back")
        }
    }

    private static func isIdentifier(_ text: String) -> Bool {
        !text.isEmpty && Check.isPlainText(text.utf8)
    }
}
