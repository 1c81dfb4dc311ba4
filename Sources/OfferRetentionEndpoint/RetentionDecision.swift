import Foundation
import OfferSigning

/// What to show a customer who looks at cancelling: one of the members of Apple's
/// `RealtimeResponseBody`, or nothing (``default``), so that Apple shows the default message it
/// has for the product and locale.
///
/// Every `messageIdentifier` must name a message Apple has `APPROVED`; otherwise Apple shows the
/// default message.
public enum RetentionDecision: Sendable, Hashable {
    /// `message`: a retention message (text, and optionally an image).
    case message(messageIdentifier: UUID)
    /// `alternateProduct`: a switch-plan message suggesting `productId` (a subscription of the
    /// same group); the message must have no image.
    case alternateProduct(messageIdentifier: UUID, productId: String, billingPlanType: BillingPlanType? = nil)
    /// `promotionalOffer`: a message with the promotional offer `offerIdentifier` of `productId`,
    /// signed for this customer when the answer is made (V2 with `transactionId` = the request's
    /// `originalTransactionId`).
    ///
    /// `appAccountToken` is the customer's app account token, known only to the developer's own
    /// data (the request carries none): a V1 signature signs it and the answer carries it, so the
    /// App Store associates it with the transaction if the customer accepts. Only V1 has the field:
    /// with ``PromotionalOfferSignatureVersion/v2`` a token makes the decision unusable (the
    /// answer is `{}`, counted as a hook failure).
    case promotionalOffer(
        messageIdentifier: UUID, productId: String, offerIdentifier: String,
        signature: PromotionalOfferSignatureVersion, appAccountToken: UUID? = nil)
    /// `advancedCommerceInfo`: a message with an Advanced Commerce `MODIFY_SUBSCRIPTION` request
    /// of exactly one `changeItems` entry and no `addItems` or `removeItems`. Its `transactionId`
    /// and `requestInfo.requestReferenceId` are replaced when the answer is made: the request's
    /// `originalTransactionId` and a fresh UUID.
    case advancedCommerceInfo(messageIdentifier: UUID, request: AdvancedCommerce.SubscriptionModifyInAppRequest)
    /// Nothing chosen: the answer is `{}` and Apple shows the default message.
    case `default`

    /// The kind of answer this decision makes.
    public var kind: RetentionAnswerKind {
        switch self {
        case .message: .message
        case .alternateProduct: .alternateProduct
        case .promotionalOffer: .promotionalOffer
        case .advancedCommerceInfo: .advancedCommerceInfo
        case .default: .default
        }
    }
}
