/// The app a campaign belongs to.
public struct CampaignApp: Sendable, Equatable {
    /// The bundle ID, for example `com.example.offerkit.demo`.
    public var bundleId: String
    /// The App Apple ID (the numeric `id` of the app in App Store Connect and in its App Store URL).
    public var appAppleId: String

    public init(bundleId: String, appAppleId: String) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
    }
}
