import NIOConcurrencyHelpers
import OfferSigning

/// Whether the service takes API keys, or runs without authentication (loopback only).
public enum Authentication: Sendable, Equatable {
    case required
    case disabled
}

/// Everything the operations share: the apps' signers, the API keys, the limits, the rate
/// limiter, the metrics, the code ledger and the Get Retention Message endpoint (if any) and the
/// readiness flag.
public final class ServiceState: Sendable {
    public let apps: AppRegistry
    public let apiKeys: APIKeyStore
    public let limits: ServiceLimits
    public let authentication: Authentication
    public let rateLimiter: RateLimiter
    public let metrics: ServiceMetrics
    /// The clock for `today` in campaign operations.
    public let clock: SigningClock
    /// The code ledger that `POST /v1/codes/claim` and `GET /v1/campaigns/{name}/status` use;
    /// `nil` for a stateless service, which does not have those operations.
    public let ledger: ServiceLedger?
    /// The Get Retention Message endpoint; `nil` when the configuration has no `retention`.
    public let retention: RetentionEndpoint?
    private let shuttingDown = NIOLockedValueBox(false)

    public init(
        apps: AppRegistry, apiKeys: APIKeyStore, limits: ServiceLimits, authentication: Authentication,
        rateLimiter: RateLimiter? = nil, metrics: ServiceMetrics = ServiceMetrics(), clock: SigningClock = .system,
        ledger: ServiceLedger? = nil, retention: RetentionEndpoint? = nil
    ) {
        self.apps = apps
        self.apiKeys = apiKeys
        self.limits = limits
        self.authentication = authentication
        self.rateLimiter =
            rateLimiter ?? RateLimiter(requestsPerSecond: limits.requestsPerSecond, burst: Double(limits.burst))
        self.metrics = metrics
        self.clock = clock
        self.ledger = ledger
        self.retention = retention
    }

    /// Whether graceful shutdown has begun (`/readyz` then answers 503).
    public var isShuttingDown: Bool { shuttingDown.withLockedValue { $0 } }

    /// Marks the start of graceful shutdown.
    public func beginShutdown() { shuttingDown.withLockedValue { $0 = true } }
}
