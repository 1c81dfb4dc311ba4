import Logging
import OfferLedger
import PostgresNIO

extension CodeLedger {
    /// Opens the PostgreSQL ledger at `location` and runs `body` with it; the ledger's connections
    /// (postgres-nio's `PostgresClient`, and one that watches the server) run in a task of this
    /// call, and end when `body` returns (as postgres-nio asks: its client runs in a task the user
    /// owns). See the PostgreSQL store for its transactions and guarantees.
    ///
    /// With ``LedgerAccess/readWrite`` the ledger's schema and tables are created when missing, or
    /// brought up to date; ``LedgerAccess/readOnly`` opens it as it is. Opening refuses a session
    /// whose `synchronous_commit` is `off`: a claim is answered only once its commit is durable.
    /// While the server is away, every call fails at once with
    /// ``LedgerError/databaseFailure(operation:reason:)`` (the server is tried again every 200 ms).
    ///
    /// - Parameter maximumConnections: the most connections the ledger keeps open (a claim holds
    ///   one for one statement).
    /// - Throws: ``LedgerError/cannotOpen(path:reason:)`` when the server cannot be reached or
    ///   refuses the connection, or its commits are not durable; ``LedgerError/notALedger(path:)``
    ///   for a schema with tables of another program, ``LedgerError/newerSchema(path:unknownMigrations:)``
    ///   for a ledger of a newer OfferKit, ``LedgerError/outdatedSchema(path:)`` for one of an
    ///   earlier OfferKit opened read-only, ``LedgerError/corrupt(path:reason:)`` for a damaged one;
    ///   and whatever `body` throws.
    public static func withPostgres<T>(
        _ location: PostgresLocation, access: LedgerAccess = .readWrite, maximumConnections: Int = 4,
        _ body: (CodeLedger) async throws -> T
    ) async throws -> T {
        let label = location.description
        let logger = Logger(label: "offerkit.ledger.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        let connector = PostgresConnector(location: location, logger: logger, maximumConnections: maximumConnections)
        let sentinel: PostgresConnection
        do {
            sentinel = try await connector.connect(timeout: .seconds(10))
        } catch let error as PSQLError {
            throw LedgerError.cannotOpen(path: label, reason: PostgresLedgerStore.reason(error))
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
