import OfferJSON

/// Which App Store Server API environment the Retention Messaging API calls go to, with Apple's
/// spelling (`Sandbox`, `Production`; read in any case): each has its own base URL, its own
/// messages, images, default messages and real-time URL (docs/formats.md §9).
///
/// The base URLs are those of Apple's App Store Server libraries (the Python library 3.1.2:
/// `api.storekit.apple.com`, `api.storekit-sandbox.apple.com`); docs/formats.md §9 and Apple's earlier
/// documentation name `api.storekit.itunes.apple.com` and `api.storekit-sandbox.itunes.apple.com`,
/// which `--api-base-url` still reaches.
public enum RetentionEnvironment: String, Sendable, CaseIterable, EnumeratedValue {
    /// `https://api.storekit-sandbox.apple.com`: where the performance test runs.
    case sandbox = "Sandbox"
    /// `https://api.storekit.apple.com`: a production real-time URL needs a passed
    /// sandbox performance test first.
    case production = "Production"

    /// Apple's base URL of the environment, without a trailing `/`.
    public var baseURL: String {
        switch self {
        case .sandbox: "https://api.storekit-sandbox.apple.com"
        case .production: "https://api.storekit.apple.com"
        }
    }

    /// Apple's name of the environment in payloads (`Sandbox`, `Production`): its `rawValue`, the
    /// one spelling OfferKit writes (input takes any case).
    public var appleName: String { rawValue }
}
