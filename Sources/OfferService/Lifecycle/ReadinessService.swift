import Logging
import ServiceLifecycle

/// A service that marks the start of graceful shutdown on ``ServiceState`` so that `/readyz`
/// answers 503 while in-flight requests finish.
///
/// A `ServiceGroup` shuts its services down in reverse order, so list this one *after* the
/// HTTP application: readiness flips first, then the server stops accepting connections.
public struct ReadinessService: Service {
    public let state: ServiceState
    public let logger: Logger

    public init(state: ServiceState, logger: Logger) {
        self.state = state
        self.logger = logger
    }

    /// Waits for graceful shutdown, then marks the service as shutting down.
    /// - Throws: `CancellationError` when the group is cancelled before graceful shutdown.
    public func run() async throws {
        try await gracefulShutdown()
        state.beginShutdown()
        logger.notice("graceful shutdown: /readyz answers 503, in-flight requests finish, new connections are refused")
    }
}
