import OfferAppleVerification
import OfferRetention

/// The `retention` section of a service configuration: the Get Retention Message endpoint that the
/// App Store calls while a customer looks at cancelling a subscription.
///
/// ```json
/// "retention": {
///   "path": "/v1/retention/realtime",
///   "environments": ["Sandbox", "Production"],
///   "rootCertificates": ["test-root.pem"],
///   "maxRequestAgeSeconds": 300,
///   "apps": { "com.example.app": [ { "productId": "…", "promotionalOffer": { … } }, { "message": { … } } ] }
/// }
/// ```
///
/// Every app of `apps` with an `appAppleId` is served; `retention.apps` gives the rules of some
/// of them (an app without rules answers `{}`, Apple's default message).
public struct RetentionConfiguration: Sendable {
    /// The path Apple is given to call (`realtimeURL`'s path): `/v1/retention/realtime` by default.
    public var path: String
    /// The environments whose requests are answered.
    public var environments: [AppleEnvironment]
    /// PEM files of the roots a request's chain must end in (absolute, or resolved against the
    /// configuration's folder); empty: Apple Root CA – G3.
    public var rootCertificateFiles: [String]
    /// How old a request may be, in seconds.
    public var maxRequestAgeSeconds: Int
    /// Each app's rules, by bundle ID.
    public var rules: [String: RetentionRules]

    /// The default path.
    public static let defaultPath = "/v1/retention/realtime"
    /// The default of ``maxRequestAgeSeconds``: 300.
    public static let defaultMaxRequestAgeSeconds = 300

    public init(
        path: String = defaultPath, environments: [AppleEnvironment], rootCertificateFiles: [String] = [],
        maxRequestAgeSeconds: Int = defaultMaxRequestAgeSeconds, rules: [String: RetentionRules] = [:]
    ) {
        self.path = path
        self.environments = environments
        self.rootCertificateFiles = rootCertificateFiles
        self.maxRequestAgeSeconds = maxRequestAgeSeconds
        self.rules = rules
    }
}
