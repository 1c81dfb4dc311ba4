/// The service's limits on each request.
public struct ServiceLimits: Sendable, Equatable {
    /// The largest request body accepted, in bytes (1 MiB by default).
    public var maxBodyBytes: Int
    /// How long an operation may run, in seconds (10 by default).
    public var requestTimeoutSeconds: Double
    /// Each API key's sustained rate, in requests per second (50 by default).
    public var requestsPerSecond: Double
    /// How many requests an API key may make at once before the rate applies (100 by default).
    public var burst: Int

    public init(
        maxBodyBytes: Int = 1_048_576, requestTimeoutSeconds: Double = 10, requestsPerSecond: Double = 50,
        burst: Int = 100
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.requestsPerSecond = requestsPerSecond
        self.burst = burst
    }
}
