/// What an answer of the Get Retention Message endpoint chose: a metric label, a log value.
public enum RetentionAnswerKind: String, Sendable, Hashable, CaseIterable {
    /// `message`: a retention message.
    case message
    /// `alternateProduct`: a switch-plan message.
    case alternateProduct
    /// `promotionalOffer`: a message with a promotional offer signed for this customer.
    case promotionalOffer
    /// `advancedCommerceInfo`: a message with a signed Advanced Commerce request.
    case advancedCommerceInfo
    /// `{}`: nothing chosen, so Apple shows the default message of the product and locale.
    case `default`
    /// `{}` because the decider threw, overran its time budget, or chose what cannot be signed.
    case hookFailed
}
