import OfferAppleVerification
import OfferRetentionEndpoint

/// The `retention` section of a service configuration: the Get Retention Message endpoint that the
/// App Store calls while a customer looks at cancelling a subscription.
///
/// ```json
/// "retention": {
///   "path": "/v1/retention/realtime",
///   "environments": ["Sandbox", "Production"],
///   "maxRequestAgeSeconds": 300,
///   "apps": { "com.example.app": [ { "productId": "…", "promotionalOffer": { … } }, { "message": { … } } ] }
/// }
/// ```
///
/// Every app of `apps` with an `appAppleId` is served; `retention.apps` gives the rules of some
/// of them (an app without rules answers `{}`, Apple's default message).
///
/// A request must chain to Apple Root CA – G3. `rootCertificates` adds roots of your own for
/// testing (a chain made by `offerkit retention test-chain`); they answer test requests only, so a
/// configuration with them serves only the test environments (``testEnvironments``): with
/// `Production` among its environments it is refused (``checkTrust(source:)``), and no request
/// signed under a root of your own is ever answered for production.
public struct RetentionConfiguration: Sendable {
    /// The path Apple is given to call (`realtimeURL`'s path): `/v1/retention/realtime` by default.
    public var path: String
    /// The environments whose requests are answered.
    public var environments: [AppleEnvironment]
    /// PEM files of roots of your own, for testing (absolute, or resolved against the configuration's
    /// folder): a request may chain to them or to Apple Root CA – G3. Only with
    /// ``testEnvironments``, never with Production.
    public var rootCertificateFiles: [String]
    /// How old a request may be, in seconds.
    public var maxRequestAgeSeconds: Int
    /// Each app's rules, by bundle ID.
    public var rules: [String: RetentionRules]

    /// The default path.
    public static let defaultPath = RetentionSchemas.defaultPath
    /// The default of ``maxRequestAgeSeconds``: 300.
    public static let defaultMaxRequestAgeSeconds = 300
    /// The environments roots of your own (``rootCertificateFiles``) may answer: every one but
    /// Production (Apple sends `Sandbox` and `Production`; `Xcode` and `LocalTesting` are StoreKit's
    /// test environments).
    public static let testEnvironments: Set<AppleEnvironment> = [.sandbox, .xcode, .localTesting]

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

    /// Refuses roots of your own together with an environment they must not answer (Production).
    /// - Parameter source: the configuration's file, for the message.
    /// - Throws: ``ConfigurationError/invalidField(source:field:expected:)`` naming
    ///   `retention.environments[i]`, the first such environment.
    public func checkTrust(source: String) throws(ConfigurationError) {
        guard !rootCertificateFiles.isEmpty,
            let index = environments.firstIndex(where: { !Self.testEnvironments.contains($0) })
        else { return }
        throw .invalidField(
            source: source, field: "retention.environments[\(index)]",
            expected: "only test environments (Sandbox) while retention.rootCertificates is given: roots of your own "
                + "answer test requests, and a \(environments[index].rawValue) request is answered only when Apple "
                + "signed it (Apple Root CA - G3); found \(environments[index].rawValue). Serve production from a "
                + "configuration without rootCertificates")
    }
}
