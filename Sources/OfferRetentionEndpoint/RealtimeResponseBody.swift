import Foundation
import OfferAppleVerification
import OfferJSON
import OfferSigning

/// The answer of the Get Retention Message endpoint (Apple's `RealtimeResponseBody`) to one
/// request: the ``RealtimeAnswer`` a decision makes, offers signed when it is made.
public enum RealtimeResponseBody {
    /// The JSON for `decision` (``RealtimeAnswer/body``), signing what it offers for `request` with `signer`.
    /// - Throws: ``RetentionHookFailure/unusable(reason:)`` when the signing library refuses a
    ///   field, or an Advanced Commerce request is not a single change.
    public static func encode(
        _ decision: RetentionDecision, for request: DecodedRealtimeRequestBody, signer: OfferSigner
    ) throws(RetentionHookFailure) -> [UInt8] {
        try answer(decision, for: request, signer: signer).body
    }

    /// The answer `decision` makes for `request`, its offers signed with `signer`.
    /// - Throws: as ``encode(_:for:signer:)``.
    public static func answer(
        _ decision: RetentionDecision, for request: DecodedRealtimeRequestBody, signer: OfferSigner
    ) throws(RetentionHookFailure) -> RealtimeAnswer {
        switch decision {
        case .message(let messageIdentifier):
            return .message(messageIdentifier: messageIdentifier)
        case .alternateProduct(let messageIdentifier, let productId, let billingPlanType):
            guard !productId.isEmpty, Check.isPlainText(productId.utf8) else {
                throw .unusable(reason: "alternateProduct.productId is empty or holds control characters")
            }
            return .alternateProduct(
                messageIdentifier: messageIdentifier, productId: productId, billingPlanType: billingPlanType?.rawValue)
        case .promotionalOffer(
            let messageIdentifier, let productId, let offerIdentifier, let version, let appAccountToken):
            switch version {
            case .v2:
                guard appAccountToken == nil else {
                    throw .unusable(
                        reason: "promotionalOffer.appAccountToken: a V2 signature has no appAccountToken; "
                            + "sign with v1 to carry one")
                }
                let offer = PromotionalOfferRequest(
                    productId: productId, offerIdentifier: offerIdentifier,
                    transactionId: request.originalTransactionId)
                let jws = try signed("promotionalOffer") { try signer.sign(offer) }
                return .promotionalOfferV2(messageIdentifier: messageIdentifier, jws: jws.serialization)
            case .v1:
                let offer = LegacyPromotionalOfferRequest(
                    productId: productId, offerIdentifier: offerIdentifier,
                    appAccountToken: appAccountToken?.uuidString ?? "")
                // The answer carries what was signed (the signer writes the token in lower case).
                let signature = try signed("promotionalOffer") { try signer.sign(offer) }
                return .promotionalOfferV1(messageIdentifier: messageIdentifier, signature: signature)
            }
        case .advancedCommerceInfo(let messageIdentifier, var modify):
            do {
                try RetentionRules.check(modify, path: "advancedCommerceInfo.request")
            } catch {
                throw .unusable(reason: error.errorDescription ?? "not a single change")
            }
            modify.transactionId = request.originalTransactionId
            modify.requestInfo.requestReferenceId = signer.nonces.next()
            let jws = try signed("advancedCommerceInfo") { try signer.sign(.modifySubscription(modify)) }
            return .advancedCommerceInfo(
                messageIdentifier: messageIdentifier,
                advancedCommerceData: advancedCommerceData(token: jws.serialization))
        case .default:
            return .default
        }
    }

    /// The `advancedCommerceData` before base64: the UTF-8 JSON `{"signatureInfo":{"token":"<JWS>"}}`
    /// of Apple's "Sending Advanced Commerce API requests from your app", which Apple's
    /// `advancedCommerceData` documentation points to.
    static func advancedCommerceData(token: String) -> [UInt8] {
        var writer = JSONWriter(capacity: token.utf8.count + 40)
        writer.beginObject()
        writer.key("signatureInfo")
        writer.beginObject()
        writer.member("token", token)
        writer.endObject()
        writer.endObject()
        return writer.bytes
    }

    private static func signed<Value>(_ member: String, _ sign: () throws -> Value) throws(RetentionHookFailure)
        -> Value
    {
        do {
            return try sign()
        } catch let error as RequestValidationError {
            throw .unusable(reason: "\(member): \(error.errorDescription ?? error.field)")
        } catch {
            throw .unusable(reason: "\(member): the signer failed (\(String(reflecting: type(of: error))))")
        }
    }
}
