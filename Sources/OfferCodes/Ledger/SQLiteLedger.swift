import Foundation
import GRDB

/// The default ``CodeLedger``: one SQLite file, read and written with GRDB.
///
/// Each write is one SQLite transaction, so a batch is kept whole or not at all, even when the
/// process is killed while it records. The file uses SQLite's rollback journal: when no write is
/// under way the ledger is the one file at ``path`` (a `-journal` file next to it exists only
/// during a write, or after a crash until the next open rolls it back).
///
/// `insertCodes` and `forEachCode` closures run inside the ledger's database access: they must
/// not call the same ledger.
public final class SQLiteLedger: CodeLedger {
    /// The ledger file, or `nil` for an in-memory ledger.
    public let path: String?

    let database: DatabaseQueue

    /// Opens the ledger file at `path`, creating it when missing, and brings its schema up to date.
    ///
    /// - Throws: ``LedgerError/cannotOpen(path:reason:)`` when the file cannot be opened or created,
    ///   ``LedgerError/corrupt(path:reason:)`` when it is not a readable SQLite database,
    ///   ``LedgerError/notALedger(path:)`` for another program's database, and
    ///   ``LedgerError/newerSchema(path:unknownMigrations:)`` for a ledger of a newer OfferKit.
    public convenience init(path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw LedgerError.cannotOpen(path: path, reason: "the folder \(folder) does not exist")
        }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: Self.configuration())
        } catch let error as DatabaseError {
            throw Self.openingError(error, path: path)
        }
        try self.init(database: queue, path: path)
    }

    /// A ledger that lives in memory and vanishes with the object: for tests and dry runs.
    public static func inMemory() throws -> SQLiteLedger {
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(configuration: configuration())
        } catch let error as DatabaseError {
            throw LedgerError.databaseFailure(operation: "create an in-memory ledger", reason: reason(error))
        }
        return try SQLiteLedger(database: queue, path: nil)
    }

    private init(database: DatabaseQueue, path: String?) throws {
        self.database = database
        self.path = path
        do {
            try database.read { db in try Self.checkIsLedger(db, path: path ?? ":memory:") }
            try LedgerSchema.migrator.migrate(database)
        } catch let error as DatabaseError {
            if let path { throw Self.openingError(error, path: path) }
            throw LedgerError.databaseFailure(operation: "create the ledger's tables", reason: Self.reason(error))
        }
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.label = "OfferKit code ledger"
        configuration.foreignKeysEnabled = true
        // Another OfferKit process may be writing: wait for it rather than fail at once.
        configuration.busyMode = .timeout(TimeInterval(busyTimeoutSeconds))
        configuration.prepareDatabase { db in
            // Room for the pages a large batch changes (the code index is written in random order),
            // so that SQLite does not spill them to the file many times over within a transaction.
            try db.execute(sql: "PRAGMA cache_size = -\(cacheKibibytes)")
        }
        return configuration
    }

    /// The page cache, in KiB.
    static let cacheKibibytes = 65_536
    /// How long a write waits for another process that holds the ledger.
    static let busyTimeoutSeconds = 10

    /// Refuses another program's database and a ledger whose schema is newer than this code.
    private static func checkIsLedger(_ db: Database, path: String) throws {
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        guard !tables.isEmpty else { return }
        guard tables.contains("grdb_migrations") else { throw LedgerError.notALedger(path: path) }
        let known = Set(LedgerSchema.migrator.migrations)
        let unknown = try LedgerSchema.migrator.appliedIdentifiers(db).subtracting(known).sorted()
        guard !unknown.isEmpty else { return }
        guard unknown.allSatisfy({ $0.hasPrefix(LedgerSchema.migrationPrefix) }) else {
            throw LedgerError.notALedger(path: path)
        }
        throw LedgerError.newerSchema(path: path, unknownMigrations: unknown)
    }

    /// Runs `body` in one write transaction: it commits when `body` returns, and rolls back when
    /// anything throws. SQLite failures become ``LedgerError``; other errors pass unchanged.
    func write<T>(_ operation: @autoclosure () -> String, _ body: (Database) throws -> T) throws -> T {
        do {
            return try database.write(body)
        } catch let error as DatabaseError {
            throw failure(error, operation: operation())
        }
    }

    /// Runs `body` in a read-only transaction; SQLite failures become ``LedgerError``.
    func read<T>(_ operation: @autoclosure () -> String, _ body: (Database) throws -> T) throws -> T {
        do {
            return try database.read(body)
        } catch let error as DatabaseError {
            throw failure(error, operation: operation())
        }
    }

    private func failure(_ error: DatabaseError, operation: String) -> LedgerError {
        if let path, error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB {
            return .corrupt(path: path, reason: Self.reason(error))
        }
        return .databaseFailure(operation: operation, reason: Self.reason(error))
    }

    private static func openingError(_ error: DatabaseError, path: String) -> LedgerError {
        if error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB {
            return .corrupt(path: path, reason: reason(error))
        }
        return .cannotOpen(path: path, reason: reason(error))
    }

    /// SQLite's message and result code, without the statement or its arguments (which may hold codes).
    static func reason(_ error: DatabaseError) -> String {
        let reason = "\(error.message ?? "unknown error") (SQLite result code \(error.extendedResultCode.rawValue))"
        if error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            return reason + ": another process kept the ledger busy for over \(busyTimeoutSeconds) seconds, try again"
        }
        return reason
    }
}
