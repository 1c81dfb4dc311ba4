/// Where an app's In-App Purchase key is, who issued it, and the app's App Apple ID.
public struct AppCredentials: Sendable, Equatable {
    /// The key file (PKCS#8 PEM, `SubscriptionKey_<KEYID>.p8`), absolute or resolved against the
    /// configuration file's folder.
    public var keyFile: String
    public var keyId: String
    public var issuerId: String
    /// The app's App Apple ID: how Retention Messaging's real-time requests name the app. An app
    /// without one is not served by the Get Retention Message endpoint.
    public var appAppleId: Int64?

    public init(keyFile: String, keyId: String, issuerId: String, appAppleId: Int64? = nil) {
        self.keyFile = keyFile
        self.keyId = keyId
        self.issuerId = issuerId
        self.appAppleId = appAppleId
    }
}

/// An App Store Connect API key, for `connect-api-token`.
public struct ConnectAPICredentials: Sendable, Equatable {
    public var keyFile: String
    public var keyId: String
    /// The team's issuer ID; `nil` for an individual key.
    public var issuerId: String?

    public init(keyFile: String, keyId: String, issuerId: String?) {
        self.keyFile = keyFile
        self.keyId = keyId
        self.issuerId = issuerId
    }
}
