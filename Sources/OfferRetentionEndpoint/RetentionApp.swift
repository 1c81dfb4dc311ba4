import OfferSigning

/// An app the endpoint serves: its App Apple ID, the only way a real-time request names its app,
/// and the signer of its key, which signs the offers of its answers.
public struct RetentionApp: Sendable {
    /// The app's App Apple ID (`appAppleId` in Apple's requests).
    public let appAppleId: Int64
    /// The app's signer; its bundle ID names the app in rules and logs.
    public let signer: OfferSigner

    public init(appAppleId: Int64, signer: OfferSigner) {
        self.appAppleId = appAppleId
        self.signer = signer
    }

    /// The app's bundle ID.
    public var bundleId: String { signer.bundleId }
}
