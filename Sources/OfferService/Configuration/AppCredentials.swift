/// Where an app's In-App Purchase key is and who issued it.
public struct AppCredentials: Sendable, Equatable {
    /// The key file (PKCS#8 PEM, `SubscriptionKey_<KEYID>.p8`), absolute or resolved against the
    /// configuration file's folder.
    public var keyFile: String
    public var keyID: String
    public var issuerID: String

    public init(keyFile: String, keyID: String, issuerID: String) {
        self.keyFile = keyFile
        self.keyID = keyID
        self.issuerID = issuerID
    }
}

/// An App Store Connect API key, for `connect-api-token`.
public struct ConnectAPICredentials: Sendable, Equatable {
    public var keyFile: String
    public var keyID: String
    /// The team's issuer ID; `nil` for an individual key.
    public var issuerID: String?

    public init(keyFile: String, keyID: String, issuerID: String?) {
        self.keyFile = keyFile
        self.keyID = keyID
        self.issuerID = issuerID
    }
}
