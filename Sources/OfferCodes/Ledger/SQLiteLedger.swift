import Foundation
import GRDB
import OfferJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The default ``CodeLedger``: one SQLite file, read and written with GRDB.
///
/// ## Transactions and other processes
///
/// Every method that writes runs as one SQLite transaction started with `BEGIN IMMEDIATE`: it
/// takes the file's write lock before its first read, and keeps it until it commits or rolls
/// back. Its checks (is the batch recorded, which codes are taken, how many codes the quarter
/// holds, how many offers are active) and its changes therefore see no other writer in between,
/// whether in this process or in another one that uses the same file. A writer that finds the
/// lock taken waits up to 10 seconds for it, looking again about every millisecond (so that
/// other processes writing one short transaction after another cannot starve it; see
/// `busyHandler()`), then fails with ``LedgerError/databaseFailure(operation:reason:)``.
/// Readers run in a deferred transaction and see the ledger as of one commit.
///
/// Opening a ledger creates its tables, or brings an older ledger's up to date, in one such
/// transaction that first looks at what the file holds: processes that open a new file at the
/// same time all succeed, and only the first creates the tables.
///
/// A batch is kept whole or not at all, even when the process is killed while it records, and
/// a commit is on disk before the call returns. The file uses SQLite's write-ahead log (see
/// `useWriteAheadLog`): while a process has the ledger open, `-wal` and `-shm` files sit next to
/// it; the last one to close it folds the log into the file and removes them, and after a crash
/// the next open does.
///
/// ## Files
///
/// A new ledger file is created readable and writable by its owner only (mode 0600); SQLite gives
/// its `-wal` and `-shm` files the file's mode.
///
/// ## Damage
///
/// The ledger checks what it reads: opening runs SQLite's `PRAGMA quick_check` on files up to
/// ``quickCheckLimit`` bytes and compares the schema with the one OfferKit creates; each batch
/// row carries the count and a SHA-256 digest of its codes and a checksum of its own values,
/// which every read recomputes; stored values must have the types and ranges OfferKit writes.
/// ``checkIntegrity(thorough:)`` runs SQLite's checks on demand. Whatever fails throws
/// ``LedgerError/corrupt(path:reason:)``, never returns fewer or other codes than were recorded.
///
/// `insertCodes` and `forEachCode` closures run inside the ledger's database access: they must
/// not call the same ledger.
public final class SQLiteLedger: CodeLedger {
    /// The ledger file, or `nil` for an in-memory ledger.
    public let path: String?

    let database: DatabaseQueue

    /// How the file was opened: a read-only ledger refuses every write (see ``write(_:_:)``).
    let access: LedgerAccess

    /// Whether `PRAGMA quick_check` passed when the ledger was opened.
    private let quickCheckedOnOpen: Bool

    /// Opens the ledger file at `path`: with ``LedgerAccess/readWrite``, creating it (mode 0600) when
    /// missing and bringing its schema up to date; with ``LedgerAccess/readOnly``, an existing one as it
    /// is: every write is refused (``LedgerError/databaseFailure(operation:reason:)``) before it
    /// reaches SQLite, and once it is closed the file is byte for byte what it was, with no `-wal`
    /// or `-shm` left beside it.
    ///
    /// `path` must name a regular file (a FIFO, a device or a directory is refused without being
    /// opened).
    ///
    /// - Throws: ``LedgerError/cannotOpen(path:reason:)`` when the file cannot be opened or created
    ///   (or, to read, is missing), ``LedgerError/corrupt(path:reason:)`` when it is not a readable
    ///   SQLite database or looks damaged, ``LedgerError/notALedger(path:)`` for another program's
    ///   database, ``LedgerError/newerSchema(path:unknownMigrations:)`` for a ledger of a newer
    ///   OfferKit, and ``LedgerError/olderSchema(path:applied:current:)`` for an older ledger opened
    ///   to be read only.
    public convenience init(path: String, access: LedgerAccess = .readWrite) throws {
        switch access {
        case .readWrite:
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw LedgerError.cannotOpen(path: path, reason: "the folder \(folder) does not exist")
            }
            try Self.checkRegularFile(path, mustExist: false)
            try Self.createOwnerOnly(path)
        case .readOnly:
            try Self.checkRegularFile(path, mustExist: true)
        }
        try Self.checkFormatVersions(path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        let queue: DatabaseQueue
        do {
            // Read-write even to read only: SQLite's read-only mode would leave a ledger in WAL mode
            // with `-wal` and `-shm` files beside it, while this connection's last close removes
            // them; the ledger itself refuses every write (see `write`).
            queue = try DatabaseQueue(path: path, configuration: Self.configuration())
        } catch {
            throw Self.openingError(error, path: path)
        }
        try self.init(
            database: queue, path: path, quickCheck: (size ?? .max) <= Self.quickCheckLimit, access: access)
    }

    /// A ledger that lives in memory and vanishes with the object: for tests and dry runs.
    public static func inMemory() throws -> SQLiteLedger {
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(configuration: configuration())
        } catch let error as DatabaseError {
            throw LedgerError.databaseFailure(operation: "create an in-memory ledger", reason: reason(error))
        }
        return try SQLiteLedger(database: queue, path: nil, quickCheck: false, access: .readWrite)
    }

    private init(database: DatabaseQueue, path: String?, quickCheck: Bool, access: LedgerAccess) throws {
        self.database = database
        self.path = path
        self.access = access
        let label = path ?? Self.memoryLabel
        do {
            let applied = try database.read { db in
                let applied = try LedgerSchema.appliedMigrations(db, path: label)
                if applied > 0, quickCheck { try Self.integrityCheck(db, thorough: false, path: label) }
                return applied
            }
            quickCheckedOnOpen = applied > 0 && quickCheck
            if access == .readOnly, applied < LedgerSchema.migrations.count {
                throw LedgerError.olderSchema(
                    path: label, applied: applied, current: LedgerSchema.migrations.count)
            }
            if applied < LedgerSchema.migrations.count {
                // Another process may be creating or migrating the same file: decide what to
                // apply only once the write lock is held.
                try Self.inImmediateTransaction(database) { db in
                    try LedgerSchema.migrate(db, from: LedgerSchema.appliedMigrations(db, path: label), path: label)
                }
            }
            if path != nil, access == .readWrite {
                // Only once the file is known to be a ledger: the mode is kept in the file.
                try Self.useWriteAheadLog(database, path: label)
            }
        } catch {
            if let path { throw Self.openingError(error, path: path) }
            throw Self.translate(error, path: label, operation: "create the ledger's tables")
        }
    }

    /// Switches the file to SQLite's write-ahead log (a no-op when it uses it already).
    ///
    /// Why: every claim is a transaction of its own that must be on disk before its code is
    /// answered (`synchronous = FULL`, see ``configuration()``). With the rollback journal a
    /// commit costs several `fsync` calls (journal, its header, the file, the journal's removal):
    /// about 150 commits per second on this project's CI disk. With the log it is one `fsync` of
    /// the log: about 4,000. Readers also no longer wait for a writer. What it changes: while a
    /// process has the ledger open, `PATH-wal` and `PATH-shm` sit next to it (same mode as the
    /// file); the last process to close it folds the log back into the file and removes them. A
    /// copy of the file alone, taken while a process has it open, may miss the last commits:
    /// copy a ledger with `offerkit codes ledger copy` (or `sqlite3 PATH .backup`). The log needs
    /// shared memory between processes, so the ledger's folder must be on a local file system
    /// (not NFS), as SQLite's locking already requires.
    private static func useWriteAheadLog(_ database: DatabaseQueue, path: String) throws {
        // Switching needs the file to itself; SQLite answers "busy" at once (without waiting)
        // when other connections are opening or switching it too, so wait here, as long as a
        // writer would.
        let deadline = Date().addingTimeInterval(TimeInterval(busyTimeoutSeconds))
        var mode: String?
        while true {
            do {
                mode = try database.writeWithoutTransaction { db in
                    try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                }
                break
            } catch let error as DatabaseError
                where (error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED) && Date() < deadline
            {
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
        guard mode == "wal" else {
            throw LedgerError.cannotOpen(
                path: path, reason: "SQLite could not switch it to its write-ahead log (journal mode \(mode ?? "?"))")
        }
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.label = "OfferKit code ledger"
        configuration.foreignKeysEnabled = true
        // Another OfferKit process may be writing: wait for it rather than fail at once.
        configuration.busyMode = .callback(busyHandler())
        configuration.prepareDatabase { db in
            // A commit is on disk (the log synced) before it returns: a code answered to one
            // recipient must not be handed out again after a power loss. (GRDB's own WAL set-up
            // would choose NORMAL, which may lose the last commits then.)
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // Room for the pages a large batch changes (the code index is written in random order),
            // so that SQLite does not spill them to the file many times over within a transaction.
            try db.execute(sql: "PRAGMA cache_size = -\(cacheKibibytes)")
        }
        return configuration
    }

    /// Waits for the file's lock: looks at it again about every millisecond (0.5 to 1.5 ms, at
    /// random, so that waiting processes do not look in step) until ``busyTimeoutSeconds`` have
    /// passed since the first look, then gives up (`SQLITE_BUSY`).
    ///
    /// SQLite's own busy timeout (`sqlite3_busy_timeout`) sleeps up to 100 ms between looks; a
    /// writer that commits and begins again at once (a process claiming codes one after the
    /// other) almost always holds the lock at those moments, so a waiter could lose every look for
    /// 10 seconds and fail while the ledger was busy with many short writes, none of them long:
    /// one of 8 processes claiming codes at the same time did.
    static func busyHandler() -> Database.BusyCallback {
        let firstLook = BusyWaitStart()
        return { numberOfTries in
            let now = DispatchTime.now().uptimeNanoseconds
            let start = firstLook.start(now, isFirstLook: numberOfTries == 0)
            guard now &- start < UInt64(busyTimeoutSeconds) * 1_000_000_000 else { return false }
            usleep(UInt32.random(in: 500...1_500))
            return true
        }
    }

    /// The page cache, in KiB.
    static let cacheKibibytes = 65_536
    /// How long a write waits for another process that holds the ledger.
    static let busyTimeoutSeconds = 10
    /// The largest file (64 MiB, about 1.2 million codes) that opening checks with `PRAGMA
    /// quick_check`; it took 0.2 s on a ledger of 1,000,000 codes (53 MB).
    public static let quickCheckLimit = 64 << 20
    /// How an in-memory ledger is named in errors.
    static let memoryLabel = ":memory:"

    /// Runs SQLite's checks of the whole file: `PRAGMA quick_check` (every page and record is
    /// well formed, `NOT NULL` and `CHECK` constraints hold), or with `thorough`,
    /// `PRAGMA integrity_check`, which also checks that every index matches its table (the index
    /// that keeps codes unique among them). On a ledger of 1,000,000 codes (53 MB) the quick
    /// check took 0.2 s and the thorough one 1.6 s. A quick check already passed when the ledger
    /// was opened is not repeated.
    ///
    /// - Throws: ``LedgerError/corrupt(path:reason:)`` with the first problems SQLite found.
    public func checkIntegrity(thorough: Bool = false) throws {
        if !thorough, quickCheckedOnOpen { return }
        let label = path ?? Self.memoryLabel
        try read("check the ledger's integrity") { db in try Self.integrityCheck(db, thorough: thorough, path: label) }
    }

    private static func integrityCheck(_ db: Database, thorough: Bool, path: String) throws {
        let pragma = thorough ? "integrity_check" : "quick_check"
        let problems = try String.fetchAll(db, sql: "PRAGMA \(pragma)(3)")
        guard problems != ["ok"] else { return }
        throw LedgerError.corrupt(
            path: path, reason: "SQLite's PRAGMA \(pragma) found: \(problems.joined(separator: "; "))")
    }

    /// Refuses a file whose header gives format versions SQLite does not write (bytes 18 and 19:
    /// 1 for the rollback journal, 2 for the write-ahead log). SQLite itself opens a file that
    /// claims a newer write version read-only, so a flipped bit there would surface only as a
    /// failed write; OfferKit reports it as damage at once.
    private static func checkFormatVersions(_ path: String) throws {
        // Opened without blocking (and refused unless it is a regular file).
        guard let source = try? InputSource(path: path, accepting: .regularFile) else { return }  // SQLite reports it.
        var header: [UInt8] = []
        while header.count < 20, let read = try? source.append(upTo: 20 - header.count, to: &header), read > 0 {}
        guard header.count == 20, header.prefix(16).elementsEqual("SQLite format 3\u{0}".utf8)
        else { return }  // Empty (new), or not SQLite: the open that follows decides.
        let write = header[18]
        let read = header[19]
        guard (1...2).contains(write), (1...2).contains(read) else {
            throw LedgerError.corrupt(
                path: path,
                reason: "its header gives format versions \(write) and \(read), which SQLite does not write "
                    + "(expected 1 or 2)")
        }
    }

    /// Refuses a path that names something other than a regular file (looked at, not opened: a
    /// FIFO would hold the open until a writer came), and with `mustExist` a missing one.
    private static func checkRegularFile(_ path: String, mustExist: Bool) throws {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let error = errno
            if error == ENOENT, !mustExist { return }
            throw LedgerError.cannotOpen(
                path: path, reason: error == ENOENT ? "no ledger file there" : InputSource.errorText(error))
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            throw LedgerError.cannotOpen(path: path, reason: "it is \(InputSource.kind(of: type)), not a regular file")
        }
    }

    /// Creates a missing ledger file empty, readable and writable by its owner only: SQLite would
    /// create it with mode 0644, and gives its journal the file's mode.
    private static func createOwnerOnly(_ path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        let error = errno
        // Another process may just have created it; SQLite reports any other problem.
        guard error != EEXIST else { return }
        throw LedgerError.cannotOpen(path: path, reason: String(cString: strerror(error)))
    }

    /// Runs `body` in one write transaction: it commits when `body` returns, and rolls back when
    /// anything throws. SQLite and GRDB failures become ``LedgerError``; other errors pass unchanged.
    ///
    /// This is the one place where the ledger's writes begin and end: `BEGIN IMMEDIATE` takes
    /// the file's write lock before `body` reads anything (see the type's documentation).
    func write<T>(_ operation: @autoclosure () -> String, _ body: (Database) throws -> T) throws -> T {
        guard access == .readWrite else {
            throw LedgerError.databaseFailure(
                operation: operation(), reason: "the ledger was opened read-only; nothing was written")
        }
        do {
            return try Self.inImmediateTransaction(database, body)
        } catch {
            throw Self.translate(error, path: path ?? Self.memoryLabel, operation: operation())
        }
    }

    private static func inImmediateTransaction<T>(_ database: DatabaseQueue, _ body: (Database) throws -> T) throws
        -> T
    {
        try database.writeWithoutTransaction { db in
            var result: Result<T, any Error>?
            try db.inTransaction(.immediate) {
                result = .success(try body(db))
                return .commit
            }
            guard let result else {
                throw LedgerError.databaseFailure(operation: "write", reason: "the transaction did not run")
            }
            return try result.get()
        }
    }

    /// Runs `body` in a read-only transaction; SQLite and GRDB failures become ``LedgerError``.
    func read<T>(_ operation: @autoclosure () -> String, _ body: (Database) throws -> T) throws -> T {
        do {
            return try database.read(body)
        } catch {
            throw Self.translate(error, path: path ?? Self.memoryLabel, operation: operation())
        }
    }

    /// SQLite's damage codes and GRDB's decoding errors (a value of an unexpected type, or
    /// `NULL`) become ``LedgerError/corrupt(path:reason:)``, other SQLite failures
    /// ``LedgerError/databaseFailure(operation:reason:)``; other errors pass unchanged.
    static func translate(_ error: any Error, path: String, operation: String) -> any Error {
        switch error {
        case let error as DatabaseError:
            if isDamage(error) { return LedgerError.corrupt(path: path, reason: reason(error)) }
            return LedgerError.databaseFailure(operation: operation, reason: reason(error))
        case is RowDecodingError:
            // Its description quotes the row, which may hold codes.
            return LedgerError.corrupt(
                path: path, reason: "a stored value has another type than OfferKit wrote, or is NULL")
        default:
            return error
        }
    }

    private static func openingError(_ error: any Error, path: String) -> any Error {
        if let error = error as? DatabaseError, !isDamage(error) {
            return LedgerError.cannotOpen(path: path, reason: reason(error))
        }
        return translate(error, path: path, operation: "open the ledger")
    }

    /// SQLite's codes for a damaged file; "unsupported file format" is how SQLite reports a
    /// header that claims a schema format it does not know.
    private static func isDamage(_ error: DatabaseError) -> Bool {
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_FORMAT: true
        case .SQLITE_ERROR: error.message?.contains("unsupported file format") == true
        default: false
        }
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
