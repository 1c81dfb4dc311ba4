import Foundation
import OfferJSON
import OfferRetentionEndpoint
import OfferSigning

extension RealtimeAnswer {
    /// Verifies what the answer signs with the app's public key: a V2 offer's JWS (a promotional
    /// offer for `bundleId` whose `transactionId` is `originalTransactionId`, as Apple requires in a
    /// real-time answer), a V1 signature over its fields for `bundleId`, an Advanced Commerce
    /// request's JWS (a `MODIFY_SUBSCRIPTION` of `originalTransactionId`). Other answers sign nothing.
    /// - Returns: whether there was a signature to verify.
    /// - Throws: `RealtimeAnswerError.notVerified(path:reason:)`.
    @discardableResult
    public func verify(with verifier: JWSVerifier, bundleId: String, originalTransactionId: String)
        throws(RealtimeAnswerError) -> Bool
    {
        switch self {
        case .message, .alternateProduct, .default:
            return false
        case .promotionalOfferV2(_, let jws):
            let path = "promotionalOffer.promotionalOfferSignatureV2"
            let verified: VerifiedJWS
            do {
                verified = try verifier.verify(jws, as: .promotionalOffer)
            } catch {
                throw .notVerified(path: path, reason: error.errorDescription ?? "refused")
            }
            try Self.expect(verified.claims.bid, bundleId, path, "bid")
            try Self.expect(verified.claims.transactionId, originalTransactionId, path, "transactionId")
        case .promotionalOfferV1(_, let signature):
            do {
                try verifier.verify(signature, bundleId: bundleId)
            } catch {
                throw .notVerified(
                    path: "promotionalOffer.promotionalOfferSignatureV1", reason: error.errorDescription ?? "refused")
            }
        case .advancedCommerceInfo(_, let data):
            let path = "advancedCommerceInfo.advancedCommerceData"
            guard let wrapper = try? JSONValue.parse(data), wrapper.keys == ["signatureInfo"],
                let info = wrapper["signatureInfo"], info.keys == ["token"], case .string(let token)? = info["token"]
            else {
                throw .notVerified(path: path, reason: #"expected base64 of {"signatureInfo":{"token":"<JWS>"}}"#)
            }
            let verified: VerifiedJWS
            do {
                verified = try verifier.verify(token, as: .advancedCommerce)
            } catch {
                throw .notVerified(path: path, reason: error.errorDescription ?? "refused")
            }
            try Self.expect(verified.claims.bid, bundleId, path, "bid")
            guard case .modifySubscription(let request)? = verified.advancedCommerceRequest else {
                throw .notVerified(path: path, reason: "the token is not a MODIFY_SUBSCRIPTION request")
            }
            try Self.expect(request.transactionId, originalTransactionId, path, "transactionId")
        }
        return true
    }

    /// What the customer sees after choosing Cancel Subscription, in one sentence.
    public var customerSees: String {
        switch self {
        case .message(let message):
            "the message \(message.lowercasedString)"
        case .alternateProduct(let message, let productId, let billingPlanType):
            "the switch-plan message \(message.lowercasedString) offering \(productId)"
                + (billingPlanType.map { " (\($0))" } ?? "")
        case .promotionalOfferV2(let message, _):
            "the message \(message.lowercasedString) with a promotional offer ready to accept (V2 compact JWS)"
        case .promotionalOfferV1(let message, let signature):
            "the message \(message.lowercasedString) with the promotional offer \(signature.offerIdentifier) "
                + "for \(signature.productId) ready to accept (V1 signature)"
        case .advancedCommerceInfo(let message, _):
            "the message \(message.lowercasedString) with the offer of a signed Advanced Commerce MODIFY_SUBSCRIPTION "
                + "request (Advanced Commerce subscriptions only)"
        case .default:
            "Apple's default message for the product and locale (none if none is configured)"
        }
    }

    private static func expect(_ found: String?, _ expected: String, _ path: String, _ claim: String)
        throws(RealtimeAnswerError)
    {
        guard found == expected else {
            throw .notVerified(
                path: path,
                reason: "its \(claim) is \(found.map { JSONValue.string($0).shortDescription } ?? "missing"), "
                    + "expected \"\(expected)\"")
        }
    }
}
