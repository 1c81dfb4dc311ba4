import AppleTestChain
import Foundation
import OfferJSON
import OfferRetentionEndpoint
import OfferSigning
import Testing

/// Checks an answer's JSON with OfferKit's own verifier (Apple's Python models and PyJWT check the
/// same answers in ``RetentionInteropTests``).
enum AnswerChecks {
    /// The answer's JSON object; its only member (if any) and that member's object.
    static func member(of body: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> (
        name: String, value: JSONValue
    )? {
        let json = try JSONValue.parse(body)
        guard case .object(let members) = json else {
            Issue.record("the answer is not an object", sourceLocation: sourceLocation)
            return nil
        }
        #expect(members.count <= 1, "exactly one member or none", sourceLocation: sourceLocation)
        return members.first.map { ($0.key, $0.value) }
    }

    static func string(_ json: JSONValue?, _ name: String) -> String? {
        if case .string(let text)? = json?[name] { text } else { nil }
    }

    /// Checks that `body` is the answer of `kind` for the example rules, its offer signed for
    /// `originalTransactionId` by the demo key for `bundleId` (a V1 offer with `appAccountToken`
    /// signed in and carried, in lower case, when one is given).
    static func expect(
        _ body: [UInt8], is kind: String, originalTransactionId: String = "2000000900000001",
        bundleId: String = RetentionExample.bundleId, appAccountToken: UUID? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let verifier = try JWSVerifier(publicKeyPEM: RetentionFixtures.publicKeyPEM)
        let found = try member(of: body, sourceLocation: sourceLocation)
        switch kind {
        case "default":
            #expect(body == Array("{}".utf8), sourceLocation: sourceLocation)
        case "message":
            #expect(found?.name == "message", sourceLocation: sourceLocation)
            #expect(found?.value.keys == ["messageIdentifier"], sourceLocation: sourceLocation)
            #expect(
                string(found?.value, "messageIdentifier") == RetentionExample.plainMessage.uuidString.lowercased(),
                sourceLocation: sourceLocation)
        case "alternateProduct":
            #expect(found?.name == "alternateProduct", sourceLocation: sourceLocation)
            #expect(
                found?.value.keys == ["messageIdentifier", "productId", "billingPlanType"],
                sourceLocation: sourceLocation)
            #expect(string(found?.value, "productId") == "com.example.offerkit.monthly", sourceLocation: sourceLocation)
            #expect(string(found?.value, "billingPlanType") == "MONTHLY", sourceLocation: sourceLocation)
        case "promotionalOffer":
            #expect(found?.name == "promotionalOffer", sourceLocation: sourceLocation)
            let offer = try #require(found?.value, sourceLocation: sourceLocation)
            if let jws = string(offer, "promotionalOfferSignatureV2") {
                #expect(
                    offer.keys == ["messageIdentifier", "promotionalOfferSignatureV2"], sourceLocation: sourceLocation)
                let verified = try verifier.verify(jws, as: .promotionalOffer)
                #expect(verified.claims.transactionId == originalTransactionId, sourceLocation: sourceLocation)
                #expect(verified.claims.bid == bundleId, sourceLocation: sourceLocation)
                #expect(verified.claims.productId == "com.example.offerkit.monthly", sourceLocation: sourceLocation)
                #expect(verified.claims.offerIdentifier == "WINBACK50", sourceLocation: sourceLocation)
                #expect(verified.header.kid == RetentionFixtures.keyId, sourceLocation: sourceLocation)
            } else {
                #expect(
                    offer.keys == ["messageIdentifier", "promotionalOfferSignatureV1"], sourceLocation: sourceLocation)
                let v1 = try #require(offer["promotionalOfferSignatureV1"], sourceLocation: sourceLocation)
                let token = appAccountToken?.uuidString.lowercased()
                #expect(
                    v1.keys
                        == ["encodedSignature", "productId", "nonce", "timestamp", "keyId", "offerIdentifier"]
                        + (token == nil ? [] : ["appAccountToken"]),
                    sourceLocation: sourceLocation)
                #expect(string(v1, "appAccountToken") == token, sourceLocation: sourceLocation)
                let nonce = try #require(string(v1, "nonce"), sourceLocation: sourceLocation)
                #expect(nonce == nonce.lowercased(), "nonce in lower case", sourceLocation: sourceLocation)
                let signature = LegacyPromotionalOfferSignature(
                    keyId: try #require(string(v1, "keyId")), nonce: try #require(UUID(uuidString: nonce)),
                    timestamp: try #require(v1["timestamp"]?.exactInteger),
                    signature: try #require(string(v1, "encodedSignature")),
                    productId: try #require(string(v1, "productId")),
                    offerIdentifier: try #require(string(v1, "offerIdentifier")), appAccountToken: token ?? "")
                try verifier.verify(signature, bundleId: bundleId)
            }
        case "advancedCommerceInfo":
            #expect(found?.name == "advancedCommerceInfo", sourceLocation: sourceLocation)
            let info = try #require(found?.value, sourceLocation: sourceLocation)
            #expect(info.keys == ["messageIdentifier", "advancedCommerceData"], sourceLocation: sourceLocation)
            let encoded = try #require(string(info, "advancedCommerceData"), sourceLocation: sourceLocation)
            let data = try #require(Base64.decode(Array(encoded.utf8), urlSafe: false), sourceLocation: sourceLocation)
            let wrapper = try JSONValue.parse(data)
            #expect(wrapper.keys == ["signatureInfo"], sourceLocation: sourceLocation)
            #expect(wrapper["signatureInfo"]?.keys == ["token"], sourceLocation: sourceLocation)
            let token = try #require(string(wrapper["signatureInfo"], "token"), sourceLocation: sourceLocation)
            let verified = try verifier.verify(token, as: .advancedCommerce)
            #expect(verified.claims.bid == bundleId, sourceLocation: sourceLocation)
            guard case .modifySubscription(let request)? = verified.advancedCommerceRequest else {
                Issue.record("not a MODIFY_SUBSCRIPTION request", sourceLocation: sourceLocation)
                return
            }
            #expect(request.transactionId == originalTransactionId, sourceLocation: sourceLocation)
            #expect(request.changeItems?.count == 1, sourceLocation: sourceLocation)
            #expect(request.changeItems?.first?.sku == "PRO_MONTHLY_RETAIN", sourceLocation: sourceLocation)
        default:
            Issue.record("unknown kind \(kind)", sourceLocation: sourceLocation)
        }
    }
}
