/// Subscription renewal information the App Store signed (`signedRenewalInfo`), with Apple's field
/// names. It names no bundle ID: only its environment is checked, as in Apple's libraries.
///
/// Objects this type does not list (`advancedCommerceInfo`, `commitmentInfo`) are in the verified
/// payload's bytes.
public struct JWSRenewalInfoDecodedPayload: Codable, Equatable, Sendable {
    public var expirationIntent: Int64?
    public var originalTransactionId: String?
    public var autoRenewProductId: String?
    public var productId: String?
    public var autoRenewStatus: Int64?
    public var isInBillingRetryPeriod: Bool?
    public var priceIncreaseStatus: Int64?
    /// Milliseconds since 1970, like every date of Apple's payloads.
    public var gracePeriodExpiresDate: Int64?
    public var offerType: Int64?
    public var offerIdentifier: String?
    /// When the App Store signed this payload; the certificate chain is checked at this time.
    public var signedDate: Int64?
    public var environment: String?
    public var recentSubscriptionStartDate: Int64?
    public var renewalDate: Int64?
    public var currency: String?
    /// In milliunits of the currency.
    public var renewalPrice: Int64?
    public var offerDiscountType: String?
    public var eligibleWinBackOfferIds: [String]?
    public var appAccountToken: String?
    public var appTransactionId: String?
    public var offerPeriod: String?
    public var renewalBillingPlanType: String?
}
