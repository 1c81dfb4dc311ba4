import Foundation
import Logging
import OfferLedger
import PostgresNIO

extension CodeLedger {
    /// The largest `maximumConnections` of `withPostgres(_:access:maximumConnections:environment:_:)`:
    /// the most connections its pool may open for one ledger. A PostgreSQL server allows 100
    /// connections in all unless told otherwise (`max_connections`), shared by every client; more
    /// than this from one process is a mistake.
    public static let maximumPostgresConnections = 1_000

    /// Opens the PostgreSQL ledger at `location` and runs `body` with it; the ledger's connections
    /// (postgres-nio's `PostgresClient`, and one that watches the server) run in a task of this
    /// call, and end when `body` returns (as postgres-nio asks: its client runs in a task the user
    /// owns). See the PostgreSQL store for its transactions and guarantees.
    ///
    /// With `LedgerAccess.readWrite` the ledger's schema and tables are created when missing, or
    /// brought up to date; `LedgerAccess.readOnly` opens it as it is. Opening refuses a session
    /// whose `synchronous_commit` is `off`: a claim is answered only once its commit is durable.
    /// While the server is away, every call fails at once with
    /// `LedgerError.databaseFailure(operation:reason:)` (the server is tried again every 200 ms).
    ///
    /// - Parameters:
    ///   - location: the server, database, user and schema (`PostgresLocation` of `OfferLedger`).
    ///   - access: read-write (creates or migrates the schema) or read-only (opens it as it is).
    ///   - maximumConnections: the most connections the ledger's pool keeps open (a claim holds
    ///     one for one statement; one stays open while the ledger is), 1 to
    ///     `maximumPostgresConnections`; one more connection watches the server.
    ///   - environment: where `PGPASSFILE` and `HOME` are looked up: without a password in
    ///     `location`, the one of PostgreSQL's password file is used.
    ///   - body: what to do with the open ledger; its connections end when it returns.
    /// - Returns: what `body` returns.
    /// - Throws: `LedgerError.cannotOpen(path:reason:)` when the server cannot be reached or
    ///   refuses the connection, or its commits are not durable, or `maximumConnections` is out of
    ///   its range (checked before anything is sent); `LedgerError.notALedger(path:)`
    ///   for a schema with tables of another program, `LedgerError.newerSchema(path:unknownMigrations:)`
    ///   for a ledger of a newer OfferKit, `LedgerError.olderSchema(path:applied:current:)` for one of an
    ///   earlier OfferKit opened read-only, `LedgerError.corrupt(path:reason:)` for a damaged one;
    ///   `LedgerLocationError` for a location whose members the URL parser would refuse (see
    ///   `PostgresLocation.check()`); and whatever `body` throws.
    public static func withPostgres<T>(
        _ location: PostgresLocation, access: LedgerAccess = .readWrite, maximumConnections: Int = 4,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        _ body: (CodeLedger) async throws -> T
    ) async throws -> T {
        // The schema goes into SQL: whatever made the location, it must be one the parser accepts.
        try location.check()
        let label = location.description
        // With 0 the pool would open no connection and every call would wait for one forever.
        guard (1...maximumPostgresConnections).contains(maximumConnections) else {
            throw LedgerError.cannotOpen(
                path: label,
                reason: "maximumConnections is \(maximumConnections): expected 1 to \(maximumPostgresConnections)")
        }
        var connecting = location
        var passwordFileNote: String?
        if location.password == nil, let file = PostgresPasswordFile.path(environment: environment) {
            switch PostgresPasswordFile.lookUp(location, path: file) {
            case .found(let password): connecting.password = password
            case .notFound: break
            case .ignored(let path, let reason): passwordFileNote = "the password file \(path) was ignored: \(reason)"
            }
        }
        let logger = Logger(label: "offerkit.ledger.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        let connector = PostgresConnector(location: connecting, logger: logger, maximumConnections: maximumConnections)
        let sentinel: PostgresConnection
        do {
            sentinel = try await connector.connect(timeout: .seconds(10))
        } catch let error as PSQLError {
            let reason = PostgresLedgerStore.reason(error)
            throw LedgerError.cannotOpen(path: label, reason: passwordFileNote.map { reason + "; " + $0 } ?? reason)
        }
        do {
            let setting = try await sentinel.query("SHOW synchronous_commit", logger: logger).collect()
                .first?.decode(String.self)
            if setting == "off" {
                throw LedgerError.cannotOpen(
                    path: label,
                    reason: "its synchronous_commit is off, so a commit the server answers may be lost in a crash of "
                        + "the server (and a code handed out twice); turn it on for the ledger's user (ALTER ROLE … "
                        + "SET synchronous_commit = on) or the server")
            }
            try await PostgresLedgerSchema.prepare(sentinel, location: location, access: access, logger: logger)
        } catch {
            try? await sentinel.close()
            if let error = error as? PSQLError {
                throw LedgerError.cannotOpen(path: label, reason: PostgresLedgerStore.reason(error))
            }
            throw error
        }
        let store = PostgresLedgerStore(location: location, connector: connector)
        let client = connector.start()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await connector.run(sentinel: sentinel, client: client) }
            do {
                let ledger = try await CodeLedger(store: store, access: access).opened()
                let result = try await body(ledger)
                group.cancelAll()
                return result
            } catch {
                group.cancelAll()
                throw error
            }
        }
    }
}
