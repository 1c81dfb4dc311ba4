/// An App Store Server Notification V2 (`signedPayload`), with Apple's field names.
///
/// Exactly one of `data`, `summary`, `externalPurchaseToken` and `appData` names the app; the
/// verifier checks its bundle ID, environment and, in production, App Apple ID, as Apple's
/// libraries do. `data.signedTransactionInfo` and `data.signedRenewalInfo` are JWS themselves:
/// ``AppleSignedDataVerifier/verifyNotification(_:)`` verifies and decodes them too.
public struct ResponseBodyV2DecodedPayload: Codable, Equatable, Sendable {
    public var notificationType: String?
    public var subtype: String?
    public var notificationUUID: String?
    public var data: NotificationData?
    public var version: String?
    /// Milliseconds since 1970; the certificate chain is checked at this time.
    public var signedDate: Int64?
    public var summary: Summary?
    public var externalPurchaseToken: ExternalPurchaseToken?
    public var appData: AppData?

    /// The app and the signed transaction and renewal information of a notification (Apple's `Data`).
    public struct NotificationData: Codable, Equatable, Sendable {
        public var environment: String?
        public var appAppleId: Int64?
        public var bundleId: String?
        public var bundleVersion: String?
        /// A JWS: a ``JWSTransactionDecodedPayload``.
        public var signedTransactionInfo: String?
        /// A JWS: a ``JWSRenewalInfoDecodedPayload``.
        public var signedRenewalInfo: String?
        public var status: Int64?
        public var consumptionRequestReason: String?
    }

    /// The summary of a `RENEWAL_EXTENSION` notification (Apple's `Summary`).
    public struct Summary: Codable, Equatable, Sendable {
        public var environment: String?
        public var appAppleId: Int64?
        public var bundleId: String?
        public var productId: String?
        public var requestIdentifier: String?
        public var storefrontCountryCodes: [String]?
        public var succeededCount: Int64?
        public var failedCount: Int64?
    }

    /// The external purchase token of an `EXTERNAL_PURCHASE_TOKEN` notification; its environment is
    /// Sandbox when `externalPurchaseId` starts with `SANDBOX`, else Production.
    public struct ExternalPurchaseToken: Codable, Equatable, Sendable {
        public var externalPurchaseId: String?
        public var tokenCreationDate: Int64?
        public var appAppleId: Int64?
        public var bundleId: String?
    }

    /// The app of an app-level notification (Apple's `AppData`).
    public struct AppData: Codable, Equatable, Sendable {
        public var appAppleId: Int64?
        public var bundleId: String?
        public var environment: String?
        public var signedAppTransactionInfo: String?
    }
}
