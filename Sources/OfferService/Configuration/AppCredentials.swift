/// Where an app's In-App Purchase key is and who issued it.
public struct AppCredentials: Sendable, Equatable {
    /// The key file (PKCS#8 PEM, `SubscriptionKey_<KEYID>.p8`), absolute or resolved against the
    /// configuration file's folder.
    public var keyFile: String
    public var keyId: String
    public var issuerId: String

    public init(keyFile: String, keyId: String, issuerId: String) {
        self.keyFile = keyFile
        self.keyId = keyId
        self.issuerId = issuerId
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
