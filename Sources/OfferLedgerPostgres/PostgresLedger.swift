import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import OfferCodes
import PostgresNIO

/// A `CodeLedger` in a PostgreSQL database, for teams whose hosts share one ledger.
///
/// It holds what `SQLiteLedger` holds, in the tables of one schema (`PostgresLocation.schema`,
/// created when missing), and gives the same guarantees.
///
/// ## Synchronous calls
///
/// `CodeLedger` is synchronous, and so is this type: each method blocks its calling thread
/// until the server has answered. The work itself runs on postgres-nio's `PostgresClient` (a
/// connection pool), in tasks bound to one SwiftNIO event loop (never on Swift's cooperative
/// pool), so blocking a thread of that pool does not stall it. Do not call the ledger on an
/// event loop thread: it throws `LedgerError.databaseFailure(operation:reason:)` there rather
/// than block the loop. `insertCodes` and `forEachCode` closures run on the calling thread; they
/// must not write to the same ledger (the write would wait for the lock their own call holds).
///
/// ## Transactions and other processes
///
/// Every method that writes runs as one transaction (`READ COMMITTED`) whose first statement
/// takes the ledger's write lock, a transaction-scoped advisory lock
/// (`pg_advisory_xact_lock`) named after the schema: writers of the ledger, in any process on
/// any host, run one at a time, as on SQLite's file lock. Everything the writer reads to decide
/// (is the batch recorded, which codes are taken, how many codes the quarter holds, how many
/// offers are active) is read after the lock is held, and under `READ COMMITTED` each statement
/// sees every commit made before it, so no other writer can change it before this one commits.
/// Handing out codes (``assign(recipients:scope:channel:_:)``) takes the lock of its offer
/// instead, so that assignments of one offer run one at a time, on any host, while other offers
/// and recording go on (see `transaction(_:_:_:)`).
/// A writer waits up to ``lockTimeoutSeconds`` for the lock, then fails with
/// `LedgerError.databaseFailure(operation:reason:)`. Readers take no lock: they run in a
/// `REPEATABLE READ READ ONLY` transaction and see the ledger as of one commit.
///
/// Opening the ledger creates the schema and its tables, or brings them up to date, in one
/// transaction that holds another advisory lock (the migration lock) before it looks at what
/// the schema holds: processes that open a new ledger at the same time all succeed, and only
/// the first creates the tables.
///
/// A batch is kept whole or not at all: a transaction that does not commit (an error, a
/// process killed, a lost connection) is rolled back by the server.
///
/// ## Damage
///
/// Opening compares the tables' columns with the ones OfferKit creates. Each batch row carries
/// the count and a SHA-256 digest of its codes and a checksum of its own values, which every
/// read recomputes, as in `SQLiteLedger`; a mismatch, or a server error of class `XX`
/// (`data_corrupted`, `index_corrupted`), throws `LedgerError.corrupt(path:reason:)`.
///
/// ## Secrets
///
/// Errors and ``description`` name the ledger by its URL without the password.
public final class PostgresLedger: CodeLedger, CustomStringConvertible {
    /// Where the ledger is.
    public let location: PostgresLocation

    /// How the ledger was opened: a read-only ledger refuses every write (see ``transaction(_:_:_:)``).
    let access: LedgerAccess

    /// The ledger's URL without its password, as errors name it.
    public var description: String { location.description }

    let client: PostgresClient
    let executor: EventLoopTaskExecutor
    private let runner: Task<Void, Never>
    let logger: Logger

    /// How long a writer waits for another one that holds the ledger.
    public static let lockTimeoutSeconds = 30

    /// Rows sent to the server in one statement when codes are inserted.
    static let insertChunk = 10_000

    /// Connects to the server, then with `LedgerAccess.readWrite` creates the ledger's
    /// schema and tables or brings them up to date; with `LedgerAccess.readOnly` only
    /// checks them: nothing is created or changed, and a missing schema or one older than this
    /// OfferKit's is `LedgerError.olderSchema(path:applied:current:)` (0 applied: no ledger yet).
    ///
    /// - Throws: `LedgerError.cannotOpen(path:reason:)` when the server cannot be reached or
    ///   refuses the connection, `LedgerError.notALedger(path:)` for a schema with tables of
    ///   another program, `LedgerError.newerSchema(path:unknownMigrations:)` for a ledger of a
    ///   newer OfferKit, `LedgerError.corrupt(path:reason:)` for a damaged one;
    ///   `LedgerLocationError` for a location whose members the URL parser would refuse (see
    ///   `PostgresLocation.check()`).
    ///
    /// - Parameters:
    ///   - location: the server, database, user and schema (`OfferCodes`' `PostgresLocation`).
    ///   - access: read-write (creates or migrates the schema) or read-only (only checks it).
    ///   - environment: where `PGPASSFILE` and `HOME` are looked up: without a password in
    ///     `location`, the one of PostgreSQL's password file is used.
    public init(
        _ location: PostgresLocation, access: LedgerAccess = .readWrite,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        // The schema goes into SQL: whatever made the location, it must be one the parser accepts.
        try location.check()
        self.location = location
        self.access = access
        var connecting = location
        var passwordFileNote: String?
        if location.password == nil, let file = PostgresPasswordFile.path(environment: environment) {
            switch PostgresPasswordFile.lookUp(location, path: file) {
            case .found(let password): connecting.password = password
            case .notFound: break
            case .ignored(let path, let reason): passwordFileNote = "the password file \(path) was ignored: \(reason)"
            }
        }
        logger = Logger(label: "offerkit.ledger.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.user, password: connecting.password,
            database: location.database, tls: Self.tls(location.tls))
        configuration.options.maximumConnections = 4
        configuration.options.connectTimeout = .seconds(10)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        let executor = EventLoopTaskExecutor(MultiThreadedEventLoopGroup.singleton.next())
        self.executor = executor
        runner = Task(executorPreference: executor) { await client.run() }
        do {
            do {
                try Self.probe(connecting, label: location.description, executor: executor, logger: logger)
            } catch LedgerError.cannotOpen(let path, let reason) where passwordFileNote != nil {
                throw LedgerError.cannotOpen(path: path, reason: reason + "; " + (passwordFileNote ?? ""))
            }
            switch access {
            case .readWrite:
                try transaction(.migration, "create the ledger's tables") { session in
                    try PostgresLedgerSchema.migrate(session, schema: location.schema, label: label)
                }
            case .readOnly:
                let applied = try transaction(.read, "read the ledger's schema") { session in
                    try PostgresLedgerSchema.appliedMigrations(session, schema: location.schema, label: label)
                }
                let current = PostgresLedgerSchema.migrations.count
                if applied < current {
                    throw LedgerError.olderSchema(path: label, applied: applied, current: current)
                }
            }
        } catch let error as LedgerError {
            if case .databaseFailure(_, let reason) = error {
                throw LedgerError.cannotOpen(path: label, reason: reason)
            }
            throw error
        }
    }

    /// Connects once outside the pool, whose retries would hide why a connection fails (a
    /// refused port, a wrong password) behind its own error.
    private static func probe(
        _ location: PostgresLocation, label: String, executor: EventLoopTaskExecutor, logger: Logger
    ) throws {
        let tls: PostgresConnection.Configuration.TLS
        switch location.tls {
        case .disable: tls = .disable
        case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: tls)
        configuration.options.connectTimeout = .seconds(10)
        let eventLoop = executor.eventLoop
        let finalConfiguration = configuration
        do {
            try BlockingWait.run(on: executor) {
                let connection = try await PostgresConnection.connect(
                    on: eventLoop, configuration: finalConfiguration, id: 0, logger: logger)
                try await connection.close()
            }
        } catch let error as PSQLError {
            throw LedgerError.cannotOpen(path: label, reason: reason(error))
        }
    }

    deinit {
        runner.cancel()
    }

    /// Runs SQL in the ledger's schema in a transaction of its own, holding the write lock: for
    /// the tests that damage a ledger on purpose. Not for callers outside the package.
    package func executeUnchecked(_ sql: String) throws {
        _ = try transaction(.write, "run SQL") { session in try session.query(PostgresQuery(unsafeSQL: sql)) }
    }

    /// How errors name the ledger.
    var label: String { location.description }

    private static func tls(_ mode: PostgresLocation.TLSMode) -> PostgresClient.Configuration.TLS {
        switch mode {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
    }

    /// What a transaction does, and so which lock it takes.
    enum TransactionKind {
        /// Reads only, from one snapshot.
        case read
        /// Writes, holding the ledger's write lock.
        case write
        /// Creates or updates the tables, holding the migration lock.
        case migration
        /// Hands out codes of one offer (campaign and reference name), holding that offer's
        /// assignment lock.
        case assignment(campaign: String, offer: String)

        /// The advisory lock the transaction takes (readers take none).
        func lockName(schema: String) -> String? {
            switch self {
            case .read: nil
            case .write: "offerkit-ledger-write:" + schema
            case .migration: "offerkit-ledger-migration:" + schema
            case .assignment(let campaign, let offer):
                PostgresLedger.assignmentLockName(schema: schema, campaign: campaign, offer: offer)
            }
        }
    }

    /// Runs `body` in one transaction on one connection: it commits when `body` returns and
    /// rolls back when anything throws. PostgreSQL failures become ``LedgerError``; other
    /// errors pass unchanged. This is the one place where the ledger's transactions begin and
    /// end, and where writers take the ledger's lock (see the type's documentation).
    func transaction<T>(
        _ kind: TransactionKind, _ operation: @autoclosure () -> String, _ body: (PostgresSession) throws -> T
    ) throws -> T {
        if case .read = kind {} else { try refuseIfReadOnly(operation()) }
        let session = PostgresSession(client: client, executor: executor, logger: logger)
        defer { session.close() }
        let schema = location.schema
        do {
            switch kind {
            case .read:
                try session.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            case .write, .migration, .assignment:
                // READ COMMITTED (not REPEATABLE READ): each statement after the lock sees every
                // commit made before the lock was granted, so the checks read what the previous
                // holder of the lock wrote.
                try session.query("BEGIN ISOLATION LEVEL READ COMMITTED")
                // The lock's timeout and the schema in one round trip (claims are short: round
                // trips are most of their cost).
                let timeout = "\(Self.lockTimeoutSeconds)s"
                try session.query(
                    "SELECT set_config('lock_timeout', \(timeout), true), set_config('search_path', \(schema), true)")
                // One advisory lock per schema (advisory locks are per database): every writer of
                // this ledger, in any process, waits here for the one before it to commit or roll
                // back. It serializes writers the way SQLite's file lock does, which is what lets
                // the limits be checked by counting, and the codes be checked against the app's
                // codes once (see PostgresCodeInserter). The migration lock is a separate key, so
                // that opening never waits for a long write.
                //
                // Assignments take a lock of their offer instead: they change only the assignments of
                // that offer, and read batches and codes that other writers only add to (a batch and
                // its codes become visible together, at its writer's commit), so assignments of
                // different offers, and recording, run side by side. Two hosts handing out codes of
                // one offer still run one at a time, which is what keeps a code from going to two
                // recipients (the unique indexes would refuse it anyway).
                if let name = kind.lockName(schema: schema) {
                    try session.query("SELECT pg_advisory_xact_lock(hashtextextended(\(name), 0))")
                }
            }
            if case .read = kind {
                // The ledger's tables are named without their schema in the statements (writers
                // set it with the lock's timeout).
                try session.query("SELECT set_config('search_path', \(schema), true)")
            }
            let result = try body(session)
            try session.query("COMMIT")
            return result
        } catch {
            _ = try? session.query("ROLLBACK")
            throw translate(error, operation: operation())
        }
    }

    /// Runs `body` on one connection without a transaction of its own: each statement commits
    /// by itself (name tables with their schema). Errors are translated as in a transaction.
    func autocommit<T>(_ operation: @autoclosure () -> String, _ body: (PostgresSession) throws -> T) throws -> T {
        try refuseIfReadOnly(operation())
        let session = PostgresSession(client: client, executor: executor, logger: logger)
        defer { session.close() }
        do {
            return try body(session)
        } catch {
            throw translate(error, operation: operation())
        }
    }

    /// Throws for a write (`operation`) to a ledger opened read-only.
    private func refuseIfReadOnly(_ operation: String) throws {
        guard access == .readWrite else {
            throw LedgerError.databaseFailure(
                operation: operation, reason: "the ledger was opened read-only; nothing was written")
        }
    }

    /// The name of the advisory lock that serializes assignments of one offer (the lock's key is
    /// its `hashtextextended`; a collision only makes two offers wait for each other).
    static func assignmentLockName(schema: String, campaign: String, offer: String) -> String {
        "offerkit-ledger-assignment:" + schema + "\u{1F}" + campaign + "\u{1F}" + offer
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
                return LedgerError.corrupt(path: label, reason: reason)
            }
            return LedgerError.databaseFailure(operation: operation, reason: reason)
        case is PostgresDecodingError:
            return LedgerError.corrupt(
                path: label, reason: "a stored value has another type than OfferKit wrote, or is NULL")
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
