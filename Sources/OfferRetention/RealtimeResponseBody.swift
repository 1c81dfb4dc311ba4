import Foundation
import OfferAppleVerification
import OfferJSON
import OfferSigning

/// The answer of the Get Retention Message endpoint (Apple's `RealtimeResponseBody`): exactly one
/// of `message`, `alternateProduct`, `promotionalOffer`, `advancedCommerceInfo`, or `{}`, with
/// only the members Apple documents, offers signed when it is made.
public enum RealtimeResponseBody {
    /// The JSON for `decision`, signing what it offers for `request` with `signer`.
    /// - Throws: ``RetentionHookFailure/unusable(reason:)`` when the signing library refuses a
    ///   field, or an Advanced Commerce request is not a single change.
    public static func encode(
        _ decision: RetentionDecision, for request: DecodedRealtimeRequestBody, signer: OfferSigner
    ) throws(RetentionHookFailure) -> [UInt8] {
        var writer = JSONWriter(capacity: 1024)
        writer.beginObject()
        switch decision {
        case .message(let messageIdentifier):
            writer.key("message")
            writer.beginObject()
            writer.member("messageIdentifier", messageIdentifier)
            writer.endObject()
        case .alternateProduct(let messageIdentifier, let productId, let billingPlanType):
            guard !productId.isEmpty, Check.isPlainText(productId.utf8) else {
                throw .unusable(reason: "alternateProduct.productId is empty or holds control characters")
            }
            writer.key("alternateProduct")
            writer.beginObject()
            writer.member("messageIdentifier", messageIdentifier)
            writer.member("productId", productId)
            writer.member("billingPlanType", billingPlanType?.rawValue)
            writer.endObject()
        case .promotionalOffer(
            let messageIdentifier, let productId, let offerIdentifier, let version, let appAccountToken):
            writer.key("promotionalOffer")
            writer.beginObject()
            writer.member("messageIdentifier", messageIdentifier)
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
                writer.member("promotionalOfferSignatureV2", jws.serialization)
            case .v1:
                let offer = LegacyPromotionalOfferRequest(
                    productId: productId, offerIdentifier: offerIdentifier,
                    appAccountToken: appAccountToken?.uuidString ?? "")
                let signature = try signed("promotionalOffer") { try signer.sign(offer) }
                writer.key("promotionalOfferSignatureV1")
                writer.beginObject()
                writer.member("encodedSignature", signature.signature)
                writer.member("productId", signature.productId)
                writer.member("nonce", signature.nonce)
                writer.member("timestamp", signature.timestamp)
                writer.member("keyId", signature.keyId)
                writer.member("offerIdentifier", signature.offerIdentifier)
                writer.member("appAccountToken", appAccountToken)
                writer.endObject()
            }
            writer.endObject()
        case .advancedCommerceInfo(let messageIdentifier, var modify):
            do {
                try RetentionRules.check(modify, path: "advancedCommerceInfo.request")
            } catch {
                throw .unusable(reason: error.errorDescription ?? "not a single change")
            }
            modify.transactionId = request.originalTransactionId
            modify.requestInfo.requestReferenceId = signer.nonces.next()
            let jws = try signed("advancedCommerceInfo") { try signer.sign(.modifySubscription(modify)) }
            writer.key("advancedCommerceInfo")
            writer.beginObject()
            writer.member("messageIdentifier", messageIdentifier)
            writer.member("advancedCommerceData", base64: advancedCommerceData(token: jws.serialization))
            writer.endObject()
        case .default:
            break
        }
        writer.endObject()
        return writer.bytes
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
