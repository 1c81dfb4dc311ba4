import OfferAppleVerification
import X509

/// How the endpoint verifies requests and how long it waits and remembers.
public struct RetentionSettings: Sendable {
    /// The environments whose requests are accepted (Apple sends `Sandbox` and `Production`).
    public var environments: Set<AppleEnvironment>
    /// The roots a request's certificate chain must end in: Apple Root CA – G3 unless replaced
    /// (for tests).
    public var rootCertificates: [Certificate]
    /// How old a request's `signedDate` may be, in seconds; one more than 60 s in the future is
    /// refused too (``futureSkewSeconds``). Answers are remembered for retries until their
    /// request is this old.
    public var maxRequestAgeSeconds: Int
    /// How long a custom ``RetentionDecider`` may take before the answer is `{}`.
    public var deciderTimeBudget: Duration
    /// How many answers are remembered for retries (by `requestIdentifier`); the oldest go first.
    public var replayCacheCapacity: Int

    /// How far in the future a `signedDate` may be (clocks differ): 60 s.
    public static let futureSkewSeconds = 60
    /// A decider's time budget unless told otherwise: 500 ms (Apple waits about 700 ms in all).
    public static let defaultDeciderTimeBudget = Duration.milliseconds(500)
    /// Whether `budget` can be a decider's time budget: more than 0 and at most 60 s.
    public static func acceptsDeciderTimeBudget(_ budget: Duration) -> Bool {
        budget > .zero && budget <= .seconds(60)
    }
    /// The accepted range of ``maxRequestAgeSeconds``.
    public static let maxRequestAgeRange = 10...3600

    public init(
        environments: Set<AppleEnvironment>, rootCertificates: [Certificate] = [AppleRootCertificates.appleRootCAG3],
        maxRequestAgeSeconds: Int = 300, deciderTimeBudget: Duration = RetentionSettings.defaultDeciderTimeBudget,
        replayCacheCapacity: Int = 100_000
    ) {
        self.environments = environments
        self.rootCertificates = rootCertificates
        self.maxRequestAgeSeconds = maxRequestAgeSeconds
        self.deciderTimeBudget = deciderTimeBudget
        self.replayCacheCapacity = replayCacheCapacity
    }
}
