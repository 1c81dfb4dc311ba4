import Logging
import NIOCore
import NIOPosix
import NIOSSL
import OfferLedger
import PostgresNIO

/// The ledger's connections to its PostgreSQL server: postgres-nio's `PostgresClient` (a pool),
/// run in the task that owns the ledger (``run(sentinel:client:)``), and a connection of its own that
/// watches the server (the sentinel).
///
/// When the server goes away (the sentinel's connection closes, or a statement fails for want of
/// a connection), the ledger says so at once: the client is stopped, so that what waits for one
/// of its connections fails now rather than after the pool's own retries, and every statement
/// fails with ``LedgerError/databaseFailure(operation:reason:)`` without waiting (the service
/// answers 503). Meanwhile the server is tried every ``probeMilliseconds``; once it answers, a new
/// client runs and statements go through again.
final class PostgresConnector: Sendable {
    let location: PostgresLocation
    let logger: Logger
    /// Connections of the pool, at most.
    let maximumConnections: Int

    private struct State {
        var client: PostgresClient?
        var generation = 0
        /// Why the server is not used now (`nil` while it is).
        var down: String?
        var ended = false
    }
    private let state = LockedValue(State())
    /// Wakes ``run(sentinel:client:)`` when the server went away.
    private let events: AsyncStream<Void>
    private let wakeUp: AsyncStream<Void>.Continuation

    /// How often a server that went away is tried again, in milliseconds.
    static let probeMilliseconds = 200

    init(location: PostgresLocation, logger: Logger, maximumConnections: Int) {
        self.location = location
        self.logger = logger
        self.maximumConnections = maximumConnections
        (events, wakeUp) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        state.withLock { $0.down = "not connected yet" }
    }

    /// Makes a client and hands it out (``withConnection(_:_:)``): ``run(sentinel:client:)`` runs it.
    func start() -> (PostgresClient, Int) {
        let client = PostgresClient(configuration: clientConfiguration(), backgroundLogger: logger)
        let generation = state.withLock { state in
            state.generation += 1
            state.client = client
            state.down = nil
            return state.generation
        }
        return (client, generation)
    }

    /// Runs the connections until the calling task is cancelled: `client` (from ``start()``),
    /// watched by `sentinel`, a connection made already (by ``connect(timeout:)``); then, after the
    /// server went away and answered again, new ones.
    func run(sentinel first: PostgresConnection, client started: (PostgresClient, Int)) async {
        var sentinel: PostgresConnection? = first
        var current: (PostgresClient, Int)? = started
        while !Task.isCancelled {
            if sentinel == nil {
                while !Task.isCancelled {
                    if let connection = try? await connect(timeout: .seconds(2)) {
                        sentinel = connection
                        break
                    }
                    try? await Task.sleep(for: .milliseconds(Self.probeMilliseconds))
                }
            }
            guard let watched = sentinel, !Task.isCancelled else { break }
            let (client, generation) = current ?? start()
            current = nil
            await withDiscardingTaskGroup { group in
                group.addTask { await client.run() }
                group.addTask {
                    try? await watched.closeFuture.get()
                    self.markDown(generation, reason: "the connection to the server closed")
                }
                var events = self.events.makeAsyncIterator()
                while state.withLock({ $0.generation == generation && $0.down == nil }) {
                    guard await events.next() != nil else { break }  // cancelled
                }
                markDown(generation, reason: "the ledger was closed")
                group.cancelAll()
                try? await watched.close()
            }
            sentinel = nil
        }
        state.withLock { state in
            state.client = nil
            state.down = "the ledger was closed"
            state.ended = true
        }
        try? await sentinel?.close()
    }

    /// Runs `body` with a connection of the pool, or throws at once while the server is away.
    func withConnection<T>(_ operation: String, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        let (client, generation) = try state.withLock { state -> (PostgresClient, Int) in
            guard let client = state.client, state.down == nil else {
                throw LedgerError.databaseFailure(
                    operation: operation,
                    reason: "the PostgreSQL server at \(location.host):\(location.port) cannot be reached "
                        + "(\(state.down ?? "no connection")); OfferKit tries it again every \(Self.probeMilliseconds) ms"
                )
            }
            return (client, state.generation)
        }
        do {
            return try await client.withConnection { connection in try await body(connection) }
        } catch {
            if let reason = Self.lostConnection(error) { markDown(generation, reason: reason) }
            throw error
        }
    }

    /// Marks the server away (if `generation` is still the current client), and wakes ``run(sentinel:client:)``.
    func markDown(_ generation: Int, reason: String) {
        let changed = state.withLock { state -> Bool in
            guard state.generation == generation, state.down == nil else { return false }
            state.down = reason
            state.client = nil
            return true
        }
        if changed { wakeUp.yield() }
    }

    /// Why `error` means the connection to the server was lost, or `nil` when it does not.
    static func lostConnection(_ error: any Error) -> String? {
        if let error = error as? PSQLError {
            switch error.code {
            case .serverClosedConnection, .connectionError, .uncleanShutdown, .clientClosedConnection, .poolClosed:
                return "\(error.code)"
            case .server:
                // Class 08 (connection exception), 57P01-57P03 (the server shuts down or starts).
                let state = error.serverInfo?[.sqlState] ?? ""
                if state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state) {
                    return error.serverInfo?[.message] ?? state
                }
                return nil
            default:
                return nil
            }
        }
        if String(reflecting: type(of: error)).contains("ConnectionPoolError") { return "\(error)" }
        return nil
    }

    /// A connection outside the pool, whose errors say why a connection fails (a refused port, a
    /// wrong password) rather than the pool's.
    func connect(timeout: Duration) async throws -> PostgresConnection {
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: try Self.connectionTLS(location.tls))
        let (seconds, attoseconds) = timeout.components
        configuration.options.connectTimeout = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        configuration.options.additionalStartupParameters = startupParameters
        return try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration, id: 0, logger: logger)
    }

    /// Every connection's settings, from its start: the ledger's schema (its statements name
    /// tables without it), how long a statement waits for a lock, and TCP keep-alives from the
    /// server (``keepAliveSeconds``).
    private var startupParameters: [(String, String)] {
        [
            ("search_path", location.schema), ("lock_timeout", "\(PostgresLedgerStore.lockTimeoutSeconds)s"),
            ("tcp_keepalives_idle", "\(Self.keepAliveSeconds)"),
            ("tcp_keepalives_interval", "\(Self.keepAliveIntervalSeconds)"),
            ("tcp_keepalives_count", "\(Self.keepAliveProbes)"),
        ]
    }

    /// After how many seconds without traffic the server sends a TCP keep-alive on a connection
    /// of the ledger (then every ``keepAliveIntervalSeconds``, and it gives up after
    /// ``keepAliveProbes`` unanswered). The pool's first connection and the sentinel stay open,
    /// idle, for as long as the ledger is: a NAT gateway, firewall or proxy on the way may
    /// otherwise drop such a connection after a few minutes of silence (350 s by default on AWS's
    /// NAT gateway and Network Firewall).
    static let keepAliveSeconds = 60
    static let keepAliveIntervalSeconds = 10
    static let keepAliveProbes = 6

    private func clientConfiguration() -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: Self.clientTLS(location.tls))
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = .seconds(10)
        // No keep-alive queries: postgres-nio arms and cancels their timer (a task) each time a
        // connection goes back to the pool and is taken again, once a claim: 40 µs of a claim's
        // 216 µs of client CPU (release build, one process claiming 5,000 codes one at a time, 3
        // runs each: 212-222 µs with it, 176-178 µs without; 8 processes, 4 paired runs:
        // 4,140-4,518 claims/s with it, 4,465-4,845/s without). The server sends TCP keep-alives
        // instead (``startupParameters``), and a server that went away is seen at once by the
        // sentinel.
        configuration.options.keepAliveBehavior = nil
        // One connection stays open while the ledger is. postgres-nio arms an idle timer (a child
        // task on Swift's pool, with a task group of two) when a connection above
        // `minimumConnections` goes back to the pool with no request waiting, and cancels it when
        // the connection is taken again: with 0, a caller claiming one code after another paid
        // that on every claim. With 1 the connection it takes, the pool's first, has no timer
        // (release build, 2 cores, one process claiming codes one at a time: 121-122 µs of client
        // CPU a claim against 177-187 µs with 0; 8 processes in the same hour: 4,856-5,366
        // claims/s in 8 runs against 4,156-4,378/s in 4, SQLite's 8 processes 3,784-4,755/s).
        configuration.options.minimumConnections = 1
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }

    private static func clientTLS(_ mode: PostgresLocation.TLSMode) -> PostgresClient.Configuration.TLS {
        switch mode {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
    }

    private static func connectionTLS(_ mode: PostgresLocation.TLSMode) throws -> PostgresConnection.Configuration.TLS {
        switch mode {
        case .disable: .disable
        case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
    }
}
