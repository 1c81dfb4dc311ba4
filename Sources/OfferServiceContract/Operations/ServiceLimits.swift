/// The service's limits: on each request, and on the connections `offerkit serve` takes.
public struct ServiceLimits: Sendable, Equatable {
    /// The largest request body accepted, in bytes (1 MiB by default). A larger `Content-Length`
    /// is refused before any of the body is read, and the connection is closed.
    public var maxBodyBytes: Int
    /// How long an operation may run, in seconds (10 by default).
    public var requestTimeoutSeconds: Double
    /// Each API key's sustained rate, in requests per second (50 by default).
    public var requestsPerSecond: Double
    /// How many requests an API key may make at once before the rate applies (100 by default).
    public var burst: Int
    /// How many connections `ServiceRunner` (OfferService) keeps open at once (10 000 by default); further
    /// clients wait in the listen backlog until one closes.
    public var maxConnections: Int
    /// The listen backlog: how many connections the kernel queues before the service accepts them
    /// (4096 by default; Linux caps it at `net.core.somaxconn`).
    public var backlog: Int

    /// The default of ``maxConnections``: an idle connection costs a file descriptor and about
    /// 35 KB, so 10 000 take about 350 MB, which a small (2-core, 2 GB) host holds; the requests
    /// themselves are limited by the CPU, not by this.
    public static let defaultMaxConnections = 10_000
    /// The default of ``backlog``: as deep as Linux allows by default (`net.core.somaxconn` is 4096),
    /// so that a burst of thousands of connections waits instead of being dropped.
    public static let defaultBacklog = 4096

    public init(
        maxBodyBytes: Int = 1_048_576, requestTimeoutSeconds: Double = 10, requestsPerSecond: Double = 50,
        burst: Int = 100, maxConnections: Int = ServiceLimits.defaultMaxConnections,
        backlog: Int = ServiceLimits.defaultBacklog
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.requestsPerSecond = requestsPerSecond
        self.burst = burst
        self.maxConnections = maxConnections
        self.backlog = backlog
    }
}
