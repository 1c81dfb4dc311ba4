import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle

/// Runs an ``OfferService`` over HTTP/1.1 (or HTTP/1.1 over TLS 1.2 or later, given ``tls``) until
/// SIGTERM or SIGINT, then shuts down gracefully.
///
/// The Hummingbird application and a ``ReadinessService`` run in one `ServiceGroup`. On SIGTERM
/// or SIGINT, readiness flips first (`/readyz` answers 503), then the server stops accepting
/// connections, closes idle ones and lets in-flight requests finish. Requests still running after
/// ``shutdownGracePeriod`` are cancelled.
///
/// It takes at most `ServiceLimits.maxConnections` connections at once (others wait in the
/// listen backlog, `ServiceLimits.backlog` deep), and a `ConnectionGuard` on each connection
/// closes it after a response whose request was not read in full (a body refused as too large,
/// cut short, broken, or never sent), instead of reading on.
///
/// ```swift
/// let runner = ServiceRunner(service: service, host: "127.0.0.1", port: 0, logger: logger)
/// try await runner.run { address in print("listening on \(address.url)") }
/// ```
public struct ServiceRunner: Sendable {
    public let service: OfferService
    /// The address to bind, such as `127.0.0.1`, `::1` or `0.0.0.0`.
    public let host: String
    /// The port to bind; 0 lets the system choose one (reported to `onServerRunning`).
    public let port: Int
    public let logger: Logger
    /// How long a connection may stay silent (between requests, or while sending a body) before
    /// it is closed: the value given, kept within 1 s to a day.
    public let idleTimeoutSeconds: Int64
    /// How long graceful shutdown may take before the remaining requests are cancelled: by default
    /// the request timeout plus the idle timeout.
    public let shutdownGracePeriod: Duration
    /// The certificate chain and key to terminate TLS with (HTTPS: TLS 1.2 or later, ALPN `http/1.1`);
    /// `nil`: plain HTTP. The idle timeout also closes a connection whose TLS handshake stalls.
    public let tls: ServiceTLS?

    /// - Parameters:
    ///   - service: the service to serve.
    ///   - host: the address to bind, such as `127.0.0.1`, `::1` or `0.0.0.0`.
    ///   - port: the port to bind; 0 lets the system choose one (reported to `onServerRunning`).
    ///   - logger: where the server and the request log write.
    ///   - idleTimeoutSeconds: how long a connection may stay silent before it is closed (kept
    ///     within 1 s to a day).
    ///   - shutdownGracePeriod: how long graceful shutdown may take; `nil`: the request timeout
    ///     plus the idle timeout.
    ///   - tls: the TLS setting (``ServiceTLS/load(_:now:)``), or `nil` for plain HTTP.
    public init(
        service: OfferService, host: String, port: Int, logger: Logger, idleTimeoutSeconds: Int64 = 60,
        shutdownGracePeriod: Duration? = nil, tls: ServiceTLS? = nil
    ) {
        self.tls = tls
        self.service = service
        self.host = host
        self.port = port
        self.logger = logger
        // Library callers may pass any values: clamp to a day each before converting, so that an
        // infinite or NaN timeout or a huge idle time cannot trap (here or in the idle handler's
        // nanoseconds).
        let day = 86_400.0
        let timeout = service.state.limits.requestTimeoutSeconds
        let requestSeconds = timeout.isNaN ? day : min(max(timeout, 0), day)
        self.idleTimeoutSeconds = min(max(idleTimeoutSeconds, 1), Int64(day))
        self.shutdownGracePeriod =
            shutdownGracePeriod ?? .milliseconds(Int64(requestSeconds * 1000) + self.idleTimeoutSeconds * 1000)
    }

    /// Serves until SIGTERM or SIGINT and returns once graceful shutdown has finished.
    /// - Parameter onServerRunning: called once the socket is bound, with the real address.
    /// - Throws: ``ServiceRunnerError/cannotListen(host:port:reason:)`` when the address cannot be
    ///   bound; ``ServiceRunnerError/stopped(reason:)`` when the server fails later.
    public func run(
        onServerRunning: @escaping @Sendable (ListeningAddress) async -> Void = { _ in }
    ) async throws(ServiceRunnerError) {
        let listening = NIOLockedValueBox(false)
        let host = self.host
        let port = self.port
        let isTLS = tls != nil
        let logger = self.logger
        let readiness = ReadinessService(state: service.state, logger: logger)
        let gracePeriod = shutdownGracePeriod
        do {
            // A TLS setting NIOSSL refuses fails before anything listens: cannotListen.
            let application = try makeApplication { channel in
                listening.withLockedValue { $0 = true }
                let local = channel.localAddress
                await onServerRunning(
                    ListeningAddress(host: local?.ipAddress ?? host, port: local?.port ?? port, isTLS: isTLS))
            }
            var configuration = ServiceGroupConfiguration(
                services: [application, readiness], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            configuration.maximumGracefulShutdownDuration = gracePeriod
            try await ServiceGroup(configuration: configuration).run()
        } catch {
            if listening.withLockedValue({ $0 }) { throw .stopped(reason: String(describing: error)) }
            throw .cannotListen(host: host, port: port, reason: ServiceRunnerError.reason(error))
        }
    }

    /// The Hummingbird application that ``run(onServerRunning:)`` serves: HTTP/1.1 with the idle
    /// timeout and a ``ConnectionGuard`` per connection, the limits' backlog and maximum number of
    /// connections; over Hummingbird's TLS channel (NIOSSL) when ``tls`` is set.
    func makeApplication(
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        let limits = service.state.limits
        let maxBodyBytes = limits.maxBodyBytes
        // The connection times each request's body (the request timeout, clamped as the responder
        // clamps it), so operations that only compute run in the request's own task.
        let timeout = limits.requestTimeoutSeconds.isNaN ? 0 : min(max(limits.requestTimeoutSeconds, 0), 86_400)
        let bodyTimeout = TimeAmount.nanoseconds(Int64(timeout * 1e9))
        let http1 = HTTPServerBuilder.http1(
            configuration: .init(
                additionalChannelHandlers: [ConnectionGuard(maxBodyBytes: maxBodyBytes, bodyTimeout: bodyTimeout)],
                idleTimeout: .seconds(idleTimeoutSeconds)))
        return Application(
            router: service.makeRouter(
                operations: service.routedOperations, connectionTimesBodies: true),
            // TLS sits below HTTP/1.1 in each connection's pipeline; the idle timer starts when the
            // connection does, so a client that never finishes its handshake is closed as an idle one.
            server: try tls.map { try .tls(http1, tlsConfiguration: $0.tlsConfiguration) } ?? http1,
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: port), backlog: max(1, limits.backlog),
                availableConnectionsDelegate: MaximumAvailableConnections(max(1, limits.maxConnections), logger: logger)
            ),
            onServerRunning: onServerRunning,
            logger: logger
        )
    }
}
