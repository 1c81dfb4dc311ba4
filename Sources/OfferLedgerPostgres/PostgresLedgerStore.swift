import Foundation
import Logging
import NIOCore
import OfferCodes
import OfferLedger
import PostgresNIO

/// The ledger's PostgreSQL store, for teams whose hosts share one ledger
/// (`CodeLedger.withPostgres(_:access:maximumConnections:_:)`): the tables of one schema
/// (``PostgresLocation/schema``, created when missing), the same rows as SQLite's.
///
/// ## Transactions and other processes
///
/// Every write transaction (`READ COMMITTED`) takes the ledger's write lock first, a
/// transaction-scoped advisory lock (`pg_advisory_xact_lock`) named after the schema: writers of
/// the ledger, in any process on any host, run one at a time, as on SQLite's file lock, and each
/// statement after the lock sees every commit made before it. Handing out codes in bulk takes
/// the lock of its offer instead, then the offer's code lanes (`FOR UPDATE`). A writer waits up
/// to ``lockTimeoutSeconds`` for a lock, then fails with ``LedgerError/databaseFailure(operation:reason:)``.
/// Readers take no lock: `REPEATABLE READ READ ONLY`, one commit's state.
///
/// A claim is one statement, in a transaction of its own: the function `offerkit_claim_code` of
/// the ledger's schema (see ``PostgresLedgerSchema``), which locks one of the batch's code lanes
/// with `FOR UPDATE SKIP LOCKED` (claims at the same moment take other lanes instead of waiting),
/// checks the code's row against its digest, and records the assignment. The call is a prepared
/// statement (``ClaimStatement``), and it runs on the event loop of its connection
/// (``EventLoopTaskExecutor``).
///
/// ## Durability
///
/// A claim is answered only once its commit is durable: opening refuses a connection whose
/// `synchronous_commit` is `off` (a server that crashes could then lose claims it answered).
///
/// ## Damage
///
/// Server errors of class `XX` (`data_corrupted`, `index_corrupted`; the claim function raises
/// `XX001` for a code that does not match its digest) become ``LedgerError/corrupt(path:reason:)``.
///
/// ## Secrets
///
/// Errors name the ledger by its URL without the password.
package final class PostgresLedgerStore: LedgerStore {
    let location: PostgresLocation
    let connector: PostgresConnector
    var logger: Logger { connector.logger }

    /// The location without its password (made once: the ledger names itself in every row it checks).
    package let name: String

    /// How long a writer waits for another one that holds the ledger.
    package static let lockTimeoutSeconds = 30

    init(location: PostgresLocation, connector: PostgresConnector) {
        self.location = location
        self.connector = connector
        name = location.description
    }

    package func read<T>(_ operation: String, _ body: (any LedgerTransaction) async throws -> T) async throws -> T {
        try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", lock: nil, operation, body)
    }

    package func write<T>(
        _ lock: LedgerLock, _ operation: String, _ body: (any LedgerTransaction) async throws -> T
    ) async throws -> T {
        let name =
            switch lock {
            case .ledger: "offerkit-ledger-write:" + location.schema
            case .offer(let campaign, let offer):
                "offerkit-ledger-assignment:" + location.schema + "\u{1F}" + campaign + "\u{1F}" + offer
            }
        // READ COMMITTED (not REPEATABLE READ): each statement after the lock sees every commit
        // made before the lock was granted, so the checks read what the previous holder wrote.
        return try await transaction("BEGIN ISOLATION LEVEL READ COMMITTED", lock: name, operation, body)
    }

    /// Runs `body` in one transaction on one connection of the pool: it commits when `body`
    /// returns and rolls back when anything throws. PostgreSQL failures become ``LedgerError``.
    private func transaction<T>(
        _ begin: PostgresQuery, lock: String?, _ operation: String, _ body: (any LedgerTransaction) async throws -> T
    ) async throws -> T {
        do {
            return try await connector.withConnection(operation) { connection in
                let tx = PostgresTransaction(connection: connection, logger: logger, store: self)
                try await tx.query(begin)
                do {
                    // One advisory lock per schema (advisory locks are per database): every writer of
                    // this ledger, in any process, waits here for the one before it to commit or roll
                    // back. The migration lock is a separate key, so that opening never waits for a
                    // long write.
                    if let lock { try await tx.query("SELECT pg_advisory_xact_lock(hashtextextended(\(lock), 0))") }
                    let result = try await body(tx)
                    try await tx.query("COMMIT")
                    return result
                } catch {
                    do {
                        try await tx.query("ROLLBACK")
                    } catch {
                        // A connection left in a transaction must not go back to the pool.
                        try? await connection.close()
                    }
                    throw error
                }
            }
        } catch {
            throw translate(error, operation: operation)
        }
    }

    /// `nil`: each claim runs on the event loop of the connection it gets (``EventLoopTaskExecutor``).
    package var writeExecutor: (any TaskExecutor)? { nil }

    package func claim(_ request: ClaimRequest) async throws -> ClaimOutcome {
        let operation = "claim a code of offer \"\(request.scope.offer)\""
        do {
            return try await connector.withConnection(operation) { connection in
                let row: PostgresRow?
                do {
                    row = try await withTaskExecutorPreference(EventLoopTaskExecutor(connection.eventLoop)) {
                        var rows = try await connection.execute(ClaimStatement(request: request), logger: logger)
                            .makeAsyncIterator()
                        guard let row = try await rows.next() else { return nil as PostgresRow? }
                        while try await rows.next() != nil {}
                        return row
                    }
                } catch let error as PSQLError where error.code == .server && !Self.isRecipientRace(error) {
                    // postgres-nio remembers a failed prepare for the connection's life (every later
                    // claim on it would fail the same way, say after the claim function was away
                    // while a schema was restored): the pool makes a new connection instead.
                    try? await connection.close()
                    throw error
                }
                guard let row else { return .exhausted }
                var values = try PostgresValues.values(row)
                guard case .text(let outcome) = values.removeFirst() else { return .exhausted }
                switch outcome {
                case "held": return .held(values)
                case "assigned": return .assigned(values)
                case "stale": return .stale
                case "inactive": return .inactive
                default: return .exhausted
                }
            }
        } catch let error as PSQLError where Self.isRecipientRace(error) {
            // A claim of the same recipient committed first: it holds its code now.
            return .raced
        } catch {
            throw translate(error, operation: operation)
        }
    }

    /// Whether `error` is the unique index of the recipient refusing a claim: a claim of the same
    /// recipient committed first.
    static func isRecipientRace(_ error: PSQLError) -> Bool {
        error.serverInfo?[.sqlState] == "23505"
            && error.serverInfo?[.constraintName]?.hasSuffix("recipient_key") == true
    }

    /// PostgreSQL keeps its pages and indexes consistent itself (its `amcheck` extension checks
    /// them): the ledger reads every code when asked for a thorough check.
    package func checkIntegrity(thorough: Bool) async throws -> Bool { false }

    /// A session-level advisory lock (`pg_try_advisory_lock`) named after the schema and the
    /// campaign, held by a connection of its own until released; PostgreSQL releases it when that
    /// connection ends, so a killed process never leaves it behind.
    package func lockConnectRun(campaign: String) async throws -> ConnectRunLock {
        let name = "offerkit-connect-run:" + location.schema + ":" + campaign
        let connection: PostgresConnection
        do {
            connection = try await connector.connect(timeout: .seconds(10))
        } catch {
            throw translate(error, operation: "take the lock of codes apply")
        }
        let taken: Bool
        do {
            taken =
                try await connection.query("SELECT pg_try_advisory_lock(hashtextextended(\(name), 0))", logger: logger)
                .collect().first?.decode(Bool.self) ?? false
        } catch {
            try? await connection.close()
            throw translate(error, operation: "take the lock of codes apply")
        }
        guard taken else {
            try? await connection.close()
            throw LedgerError.connectRunInProgress(campaign: campaign)
        }
        // The connection holds the lock. release() unlocks it and waits for the server's answer
        // (5 s at most: a server that does not answer must not keep `codes apply` from ending), so
        // that the next run can take it at once; then it closes the connection. A lock let go
        // closes the connection, and the server releases the lock when it sees the connection end
        // (the closure keeps the connection until it is closed).
        let released = ReleaseOnce()
        let logger = logger
        return ConnectRunLock(
            release: {
                guard released.claim() else { return }
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        _ = try? await connection.query(
                            "SELECT pg_advisory_unlock(hashtextextended(\(name), 0))", logger: logger
                        ).collect()
                    }
                    group.addTask { try? await Task.sleep(for: .seconds(5)) }
                    await group.next()
                    group.cancelAll()
                    try? await connection.close()
                }
            },
            letGo: {
                guard released.claim() else { return }
                connection.close().whenComplete { _ in _ = connection }
            })
    }

    /// The connections end with `CodeLedger.withPostgres`'s block.
    package func closeConnections() async throws {}

    package func executeUnchecked(_ sql: String) async throws {
        _ = try await write(.ledger, "run SQL") { tx in
            try await (tx as! PostgresTransaction).query(PostgresQuery(unsafeSQL: sql))
        }
    }

    /// Server errors of class `XX` (internal error: data or index corrupted) and values that
    /// cannot be decoded become ``LedgerError/corrupt(path:reason:)``; other PostgreSQL failures
    /// ``LedgerError/databaseFailure(operation:reason:)``; other errors pass unchanged. Reasons
    /// hold the server's message and SQLSTATE, never the statement or its values (codes).
    func translate(_ error: any Error, operation: String) -> any Error {
        switch error {
        case let error as PSQLError:
            let reason = Self.reason(error)
            if let state = error.serverInfo?[.sqlState], state.hasPrefix("XX") {
                return LedgerError.corrupt(path: name, reason: reason)
            }
            return LedgerError.databaseFailure(operation: operation, reason: reason)
        case is PostgresDecodingError:
            return LedgerError.corrupt(
                path: name, reason: "a stored value has another type than OfferKit wrote, or is NULL")
        default:
            // The pool's own errors (it could not connect, or was shut down) name no secret.
            if String(reflecting: type(of: error)).contains("ConnectionPoolError") {
                return LedgerError.databaseFailure(
                    operation: operation, reason: "no connection to the PostgreSQL server could be made (\(error))")
            }
            return error
        }
    }

    /// The server's message and SQLSTATE, or what failed on the way to it.
    static func reason(_ error: PSQLError) -> String {
        if let info = error.serverInfo {
            let state = info[.sqlState] ?? "?"
            let message = "\(info[.message] ?? "unknown error") (SQLSTATE \(state))"
            switch state {
            case "55P03", "40P01":
                return message + ": another process kept the ledger busy for over \(lockTimeoutSeconds) seconds, "
                    + "try again"
            case "28P01", "28000":
                return message + ": check the user and password (in the URL or PGPASSWORD)"
            default:
                return message
            }
        }
        let underlying = error.underlying.map { ": \($0)" } ?? ""
        return "the connection to the PostgreSQL server failed (\(error.code))\(underlying)"
    }
}

/// Rows of PostgreSQL as the ledger reads them (``LedgerValue``): whole numbers, text, bytes and
/// booleans (as 0 or 1) as they are; any other type is refused by the ledger's checks.
enum PostgresValues {
    static func values(_ row: PostgresRow) throws -> [LedgerValue] {
        try row.map { cell -> LedgerValue in
            guard let bytes = cell.bytes else { return .null }
            switch cell.dataType {
            case .int8, .int4, .int2: return .integer(try cell.decode(Int64.self))
            case .text, .varchar, .name, .bpchar: return .text(try cell.decode(String.self))
            case .bytea: return .blob(Array(bytes.readableBytesView))
            case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
            default: return .other
            }
        }
    }
}
