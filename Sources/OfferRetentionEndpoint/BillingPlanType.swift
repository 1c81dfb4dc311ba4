import OfferJSON

/// How the alternate product of a switch-plan message is billed (Retention Messaging's
/// `billingPlanType`), with Apple's spelling.
public enum BillingPlanType: String, Sendable, Hashable, CaseIterable, EnumeratedValue {
    /// Billed every month.
    case monthly = "MONTHLY"
    /// Billed for the whole period up front.
    case billedUpfront = "BILLED_UPFRONT"
}
