/// A transaction the App Store signed (`signedTransactionInfo`), with Apple's field names.
///
/// Enumerated values (`type`, `environment`, …) are kept as the strings or integers Apple sent, so
/// that a value Apple adds later still decodes. Objects this type does not list
/// (`advancedCommerceInfo`, `commitmentInfo`) are in the verified payload's bytes.
public struct JWSTransactionDecodedPayload: Codable, Equatable, Sendable {
    public var originalTransactionId: String?
    public var transactionId: String?
    public var webOrderLineItemId: String?
    public var bundleId: String?
    public var productId: String?
    public var subscriptionGroupIdentifier: String?
    /// Milliseconds since 1970, like every date of Apple's payloads.
    public var purchaseDate: Int64?
    public var originalPurchaseDate: Int64?
    public var expiresDate: Int64?
    public var quantity: Int64?
    public var type: String?
    public var appAccountToken: String?
    public var inAppOwnershipType: String?
    /// When the App Store signed this payload; the certificate chain is checked at this time.
    public var signedDate: Int64?
    public var revocationReason: Int64?
    public var revocationDate: Int64?
    public var isUpgraded: Bool?
    public var offerType: Int64?
    public var offerIdentifier: String?
    public var environment: String?
    public var storefront: String?
    public var storefrontId: String?
    public var transactionReason: String?
    public var currency: String?
    /// In milliunits of the currency.
    public var price: Int64?
    public var offerDiscountType: String?
    public var appTransactionId: String?
    public var offerPeriod: String?
    public var revocationType: String?
    public var revocationPercentage: Int64?
    public var billingPlanType: String?
}
