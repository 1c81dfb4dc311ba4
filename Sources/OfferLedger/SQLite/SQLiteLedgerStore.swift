import Foundation
import GRDB
import GRDBSQLite
import OfferJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The ledger's SQLite store: one file, read and written with GRDB (``CodeLedger/sqlite(path:access:)``).
///
/// ## Transactions and other processes
///
/// Every write transaction starts with `BEGIN IMMEDIATE`: it takes the file's write lock before
/// its first read, and keeps it until it commits or rolls back. Its checks therefore see no other
/// writer in between, whether in this process or in another one that uses the same file. A writer
/// that finds the lock taken waits up to 10 seconds for it, looking again about every millisecond
/// (``busyHandler()``), then fails with ``LedgerError/databaseFailure(operation:reason:)``. Read
/// transactions run on connections of their own and see the ledger as of one commit (the
/// write-ahead log keeps their snapshot while writers go on).
///
/// Each transaction's statements run on its connection's executor (``SQLiteLedgerConnection``), one step
/// at a time: no thread of Swift's pool waits for the disk. Within the process, the write connection runs one
/// transaction at a time (``AsyncGate``). Claims are committed in groups (``GroupCommit``): the
/// claims that arrive while one group commits go together in the next transaction, one `fsync`
/// for all of them, each answered once its group is on disk.
///
/// ## Durability
///
/// The file uses SQLite's write-ahead log with `synchronous = FULL`: every commit syncs the log
/// before it returns, so a code answered to a recipient survives a crash of the process and a
/// power loss. (`NORMAL`, GRDB's choice with the log, keeps every commit through a crash of the
/// process but may lose the last ones in a power loss.) Opening checks that the setting took.
///
/// ## Files
///
/// A new ledger file is created readable and writable by its owner only (mode 0600); SQLite gives
/// its `-wal` and `-shm` files the file's mode.
///
/// ## Damage
///
/// Opening runs SQLite's `PRAGMA quick_check` on files up to ``quickCheckLimit`` bytes and
/// compares the schema with the one OfferKit creates; whatever fails throws
/// ``LedgerError/corrupt(path:reason:)``.
package final class SQLiteLedgerStore: LedgerStore {
    /// The ledger file, or `nil` for an in-memory ledger.
    let path: String?
    package var name: String { path ?? Self.memoryLabel }

    /// The connection that writes (the only one of an in-memory ledger); `nil` when read-only.
    private let writer: SQLiteLedgerConnection?
    /// The connections that read a file, each held by one read transaction at a time.
    private let readers: ReaderPool
    /// One transaction at a time on the write connection.
    private let gate = AsyncGate()
    private let claims: GroupCommit<ClaimRequest, ClaimOutcome>
    /// Whether `PRAGMA quick_check` passed when the ledger was opened.
    private let quickCheckedOnOpen: Bool

    private init(path: String?, writer: SQLiteLedgerConnection?, readers: [SQLiteLedgerConnection], quickChecked: Bool)
    {
        self.path = path
        self.writer = writer
        self.readers = ReaderPool(readers)
        quickCheckedOnOpen = quickChecked
        let label = path ?? Self.memoryLabel
        let gate = gate
        claims = GroupCommit { requests in
            guard let writer else { throw LedgerError.readOnly(path: label, operation: "claim a code") }
            return try await gate.run {
                try await writer.run(label: label, operation: "claim a code") { db in
                    try SQLiteClaim.commit(requests, db: db, path: label)
                }
            }
        }
    }

    // MARK: Opening

    /// Opens the ledger file at `path`: with ``LedgerAccess/readWrite``, creating it (mode 0600)
    /// when missing and bringing its schema up to date; read-only, as it is.
    ///
    /// - Throws: ``LedgerError/cannotOpen(path:reason:)`` when the file cannot be opened or created
    ///   (or, read-only, is missing), ``LedgerError/corrupt(path:reason:)`` when it is not a
    ///   readable SQLite database or looks damaged, ``LedgerError/notALedger(path:)`` for another
    ///   program's database, ``LedgerError/newerSchema(path:unknownMigrations:)`` for a ledger of a
    ///   newer OfferKit and (read-only) ``LedgerError/olderSchema(path:applied:current:)``.
    static func open(path: String, access: LedgerAccess) async throws -> SQLiteLedgerStore {
        switch access {
        case .readWrite:
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw LedgerError.cannotOpen(path: path, reason: "the folder \(folder) does not exist")
            }
            try checkRegularFile(path, mustExist: false)
            try createOwnerOnly(path)
        case .readOnly:
            try checkRegularFile(path, mustExist: true)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        let quickCheck = (size ?? .max) <= quickCheckLimit
        do {
            if access == .readOnly {
                // Read-write connections even to read only (the store has no writer, so nothing
                // writes): SQLite's read-only mode would leave a ledger in WAL mode with `-wal`
                // and `-shm` files beside it, while the last close of these removes them.
                let reader = try await connect(path, cacheKibibytes: readerCacheKibibytes)
                let applied = try await reader.run(label: path, operation: "open the ledger") { db in
                    let applied = try SQLiteLedgerSchema.appliedMigrations(db, path: path)
                    if applied > 0, quickCheck { try integrityCheck(db, thorough: false, path: path) }
                    return applied
                }
                let current = SQLiteLedgerSchema.migrations.count
                guard applied >= current else {
                    // Closed before the error goes up: the process may end with it, and the file
                    // must be left without `-wal` and `-shm`, as it was.
                    try? await reader.close()
                    throw LedgerError.olderSchema(path: path, applied: applied, current: current)
                }
                let second = try await connect(path, cacheKibibytes: readerCacheKibibytes)
                return SQLiteLedgerStore(path: path, writer: nil, readers: [reader, second], quickChecked: quickCheck)
            }
            let writer = try await connect(path, cacheKibibytes: cacheKibibytes)
            let applied = try await prepare(writer, label: path, quickCheck: quickCheck)
            try await useWriteAheadLog(writer, path: path)
            // Read-write connections that only read: whichever closes last folds the log into the file and
            // removes `-wal` and `-shm` (a read-only connection closing last would leave them).
            let readers = [
                try await connect(path, cacheKibibytes: readerCacheKibibytes),
                try await connect(path, cacheKibibytes: readerCacheKibibytes),
            ]
            return SQLiteLedgerStore(
                path: path, writer: writer, readers: readers, quickChecked: applied > 0 && quickCheck)
        } catch {
            throw openingError(error, path: path)
        }
    }

    /// Opens a connection to the file on its own executor, off Swift's pool
    /// (``SQLiteLedgerConnection/open(_:)`` says why). Every connection is opened read-write (see
    /// ``open(path:access:)``); `cacheKibibytes` is its page cache: the writer's, or a reader's.
    private static func connect(_ path: String, cacheKibibytes: Int) async throws -> SQLiteLedgerConnection {
        try await SQLiteLedgerConnection.open {
            let queue = try DatabaseQueue(path: path, configuration: configuration(cacheKibibytes: cacheKibibytes))
            try queue.inDatabase { db in try checkFormatVersions(db, path: path) }
            return queue
        }
    }

    /// A ledger that lives in memory and vanishes with the store: for tests and dry runs.
    static func inMemory() async throws -> SQLiteLedgerStore {
        do {
            let connection = SQLiteLedgerConnection(
                try DatabaseQueue(configuration: configuration(cacheKibibytes: cacheKibibytes)))
            _ = try await prepare(connection, label: memoryLabel, quickCheck: false)
            return SQLiteLedgerStore(path: nil, writer: connection, readers: [], quickChecked: false)
        } catch {
            throw translate(error, path: memoryLabel, operation: "create an in-memory ledger")
        }
    }

    /// Checks the schema, and creates or migrates it under the write lock; returns how many
    /// migrations were applied before.
    private static func prepare(_ writer: SQLiteLedgerConnection, label: String, quickCheck: Bool) async throws -> Int {
        let applied = try await writer.run(label: label, operation: "open the ledger") { db in
            let applied = try SQLiteLedgerSchema.appliedMigrations(db, path: label)
            if applied > 0, quickCheck { try integrityCheck(db, thorough: false, path: label) }
            return applied
        }
        if applied < SQLiteLedgerSchema.migrations.count {
            // Another process may be creating or migrating the same file: decide what to apply
            // only once the write lock is held.
            try await writer.run(label: label, operation: "create the ledger's tables") { db in
                try db.inTransaction(.immediate) {
                    try SQLiteLedgerSchema.migrate(
                        db, from: SQLiteLedgerSchema.appliedMigrations(db, path: label), path: label)
                    return .commit
                }
            }
        }
        return applied
    }

    /// Switches the file to SQLite's write-ahead log (a no-op when it uses it already).
    ///
    /// Why: every claim is a transaction that must be on disk before its code is answered
    /// (`synchronous = FULL`, see ``configuration(cacheKibibytes:)``). With the rollback journal a commit
    /// costs several `fsync` calls (about 150 commits per second on this project's CI disk); with
    /// the log it is one `fsync` of the log (about 4,000). Readers also no longer wait for a
    /// writer. While a process has the ledger open, `PATH-wal` and `PATH-shm` sit next to it (same
    /// mode as the file); the last process to close it folds the log back into the file and
    /// removes them. Copy a ledger in use with `offerkit codes ledger copy` (or `sqlite3 PATH
    /// .backup`), never the file alone. The log needs shared memory between processes, so the
    /// ledger's folder must be on a local file system (not NFS), as SQLite's locking already
    /// requires.
    private static func useWriteAheadLog(_ writer: SQLiteLedgerConnection, path: String) async throws {
        // Switching needs the file to itself; SQLite answers "busy" at once (without waiting)
        // when other connections are opening or switching it too: try again, as long as a writer
        // would wait.
        let deadline = ContinuousClock.now + .seconds(busyTimeoutSeconds)
        while true {
            do {
                let mode = try await writer.run(label: path, operation: "open the ledger") { db in
                    try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                }
                guard mode == "wal" else {
                    throw LedgerError.cannotOpen(
                        path: path,
                        reason: "SQLite could not switch it to its write-ahead log (journal mode \(mode ?? "?"))")
                }
                return
            } catch LedgerError.databaseFailure(_, let reason) where reason.contains(busyNote) && .now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    private static func configuration(cacheKibibytes: Int) -> Configuration {
        var configuration = Configuration()
        configuration.label = "OfferKit code ledger"
        configuration.foreignKeysEnabled = true
        // A transaction's statements are sent one at a time (see the type's documentation).
        configuration.allowsUnsafeTransactions = true
        // Another OfferKit process may be writing: wait for it rather than fail at once.
        configuration.busyMode = .callback(busyHandler())
        configuration.prepareDatabase { db in
            // A commit is on disk (the log synced) before it returns: a code answered to one
            // recipient must not be handed out again after a power loss.
            try db.execute(sql: "PRAGMA synchronous = FULL")
            guard try Int.fetchOne(db, sql: "PRAGMA synchronous") == 2 else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "SQLite did not take synchronous = FULL")
            }
            // The writer: room for the pages a large batch changes (the code index is written in
            // random order), so that SQLite does not spill them many times over within a
            // transaction. A reader needs little (its connection is read-write too: see `open`).
            try db.execute(sql: "PRAGMA cache_size = -\(cacheKibibytes)")
        }
        return configuration
    }

    /// Waits for the file's lock: looks at it again about every millisecond (0.5 to 1.5 ms, at
    /// random, so that waiting processes do not look in step) until ``busyTimeoutSeconds`` have
    /// passed since the first look, then gives up (`SQLITE_BUSY`). It runs on the executor of the
    /// connection that waits (``SQLiteLedgerConnection``), never on Swift's pool.
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

    /// The writer's page cache, in KiB.
    static let cacheKibibytes = 65_536
    /// A reader's page cache, in KiB.
    static let readerCacheKibibytes = 8_192
    /// How long a write waits for another process that holds the ledger.
    static let busyTimeoutSeconds = 10
    /// The largest file (64 MiB, about 1.2 million codes) that opening checks with `PRAGMA
    /// quick_check`; it took 0.2 s on a ledger of 1,000,000 codes (53 MB).
    package static let quickCheckLimit = 64 << 20
    /// How an in-memory ledger is named in errors.
    static let memoryLabel = ":memory:"

    // MARK: Transactions

    package func read<T>(_ operation: String, _ body: (any LedgerTransaction) async throws -> T) async throws -> T {
        guard let reader = await readers.take() else {
            // In memory: the one connection, under the gate.
            return try await inTransaction(writer!, begin: "BEGIN DEFERRED", operation: operation, body)
        }
        defer { readers.give(reader) }
        return try await inTransaction(reader, begin: "BEGIN DEFERRED", operation: operation, body)
    }

    package func write<T>(
        _ lock: LedgerLock, _ operation: String, _ body: (any LedgerTransaction) async throws -> T
    ) async throws -> T {
        guard let writer else { throw LedgerError.readOnly(path: name, operation: operation) }
        return try await gate.run {
            guard case .offer = lock else {
                return try await inTransaction(writer, begin: "BEGIN IMMEDIATE", operation: operation, body)
            }
            // Handing out codes in bulk writes a group of assignments at a time (see
            // `CodeLedger.assign`): a reader's cache is enough for it, and a list of 1,000,000
            // recipients stays within 150 MB. The writer's cache is given back afterwards.
            try await setCache(writer, kibibytes: Self.readerCacheKibibytes, operation: operation)
            do {
                let result = try await inTransaction(writer, begin: "BEGIN IMMEDIATE", operation: operation, body)
                try await setCache(writer, kibibytes: Self.cacheKibibytes, operation: operation)
                return result
            } catch {
                try? await setCache(writer, kibibytes: Self.cacheKibibytes, operation: operation)
                throw error
            }
        }
    }

    /// Sets the page cache of `connection` (SQLite frees the pages beyond it at once).
    private func setCache(_ connection: SQLiteLedgerConnection, kibibytes: Int, operation: String) async throws {
        try await connection.run(label: name, operation: operation) { db in
            try db.execute(sql: "PRAGMA cache_size = -\(kibibytes)")
        }
    }

    /// Runs `body` in one transaction on `connection`: it commits when `body` returns, and rolls
    /// back when anything throws. SQLite and GRDB failures become ``LedgerError``; other errors
    /// pass unchanged.
    private func inTransaction<T>(
        _ connection: SQLiteLedgerConnection, begin: String, operation: String,
        _ body: (any LedgerTransaction) async throws -> T
    ) async throws -> T {
        let label = name
        func work() async throws -> T {
            try await connection.run(label: label, operation: operation) { db in try db.execute(sql: begin) }
            do {
                let result = try await body(
                    SQLiteTransaction(connection: connection, path: label, operation: operation))
                try await connection.run(label: label, operation: operation) { db in
                    try db.execute(sql: "COMMIT")
                }
                return result
            } catch {
                _ = try? await connection.run(label: label, operation: operation) { db in
                    if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") }
                }
                throw Self.translate(error, path: label, operation: operation)
            }
        }
        // In memory, reads share the write connection: they take the gate too.
        if connection === writer, begin != "BEGIN IMMEDIATE" { return try await gate.run(work) }
        return try await work()
    }

    package var writeExecutor: (any TaskExecutor)? { writer?.executor }

    package func claim(_ request: ClaimRequest) async throws -> ClaimOutcome {
        try await claims.submit(request)
    }

    /// Runs the SQL on the write connection outside a transaction (so that `PRAGMA foreign_keys`
    /// takes effect), between the process's transactions.
    package func executeUnchecked(_ sql: String) async throws {
        guard let writer else { throw LedgerError.readOnly(path: name, operation: "run SQL") }
        let label = name
        try await gate.run {
            try await writer.run(label: label, operation: "run SQL") { db in try db.execute(sql: sql) }
        }
    }

    // MARK: Checks

    package func checkIntegrity(thorough: Bool) async throws -> Bool {
        if !thorough, quickCheckedOnOpen { return true }
        let label = name
        try await read("check the ledger's integrity") { tx in
            try await (tx as! SQLiteTransaction).run { db in
                try Self.integrityCheck(db, thorough: thorough, path: label)
            }
        }
        return true
    }

    /// Runs SQLite's checks of the whole file: `PRAGMA quick_check` (every page and record is
    /// well formed, `NOT NULL` and `CHECK` constraints hold), or with `thorough`,
    /// `PRAGMA integrity_check`, which also checks that every index matches its table (the index
    /// that keeps codes unique among them). On a ledger of 1,000,000 codes (53 MB) the quick
    /// check took 0.2 s and the thorough one 1.6 s.
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
    /// failed write; OfferKit reports it as damage at once, before the connection writes anything
    /// (GRDB has read the schema by then; a read version SQLite does not know fails there, as
    /// damage too).
    ///
    /// The header is read through the connection's own file (`SQLITE_FCNTL_FILE_POINTER`), never a
    /// descriptor of ours: closing one would release every POSIX lock this process holds on the
    /// file, those of another opening of the same ledger included, and another process closing the
    /// file could then take itself for the last one and remove the write-ahead log in use.
    private static func checkFormatVersions(_ db: Database, path: String) throws {
        var file: UnsafeMutablePointer<sqlite3_file>?
        let found = withUnsafeMutablePointer(to: &file) {
            sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_FILE_POINTER, $0)
        }
        guard found == SQLITE_OK, let file, let readFile = file.pointee.pMethods?.pointee.xRead else { return }
        var header = [UInt8](repeating: 0, count: 20)
        // A short read (SQLITE_IOERR_SHORT_READ): an empty file, a new ledger.
        guard header.withUnsafeMutableBytes({ readFile(file, $0.baseAddress, 20, 0) }) == SQLITE_OK,
            header.prefix(16).elementsEqual("SQLite format 3\u{0}".utf8)
        else { return }  // Empty (new), or not SQLite: what follows decides.
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
        let descriptor = systemOpen(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        let error = errno
        // Another process may just have created it; SQLite reports any other problem.
        guard error != EEXIST else { return }
        throw LedgerError.cannotOpen(path: path, reason: String(cString: strerror(error)))
    }

    /// Closes the connections (folding the write-ahead log into the file when this is the last
    /// process that has it open).
    package func closeConnections() async throws {
        let connections = readers.all + (writer.map { [$0] } ?? [])
        do {
            for connection in connections { try await connection.close() }
        } catch {
            throw Self.translate(error, path: name, operation: "close the ledger")
        }
    }

    // MARK: Errors

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
        if case LedgerError.databaseFailure(_, let reason) = error {
            return LedgerError.cannotOpen(path: path, reason: reason)
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

    /// What ``reason(_:)`` adds for a lock that another process held too long.
    private static let busyNote = "another process kept the ledger busy"

    /// SQLite's message and result code, without the statement or its arguments (which may hold codes).
    static func reason(_ error: DatabaseError) -> String {
        let reason = "\(error.message ?? "unknown error") (SQLite result code \(error.extendedResultCode.rawValue))"
        if error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            return reason + ": \(busyNote) for over \(busyTimeoutSeconds) seconds, try again"
        }
        return reason
    }
}

/// `open(2)` (the store has an `open` of its own).
func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}

/// The read connections of a file: each read transaction takes one and gives it back; a read
/// that finds none free waits for one without holding a thread.
private final class ReaderPool: Sendable {
    let all: [SQLiteLedgerConnection]
    private struct State {
        var free: [SQLiteLedgerConnection]
        var waiting: [CheckedContinuation<SQLiteLedgerConnection, Never>] = []
    }
    private let state: LockedValue<State>

    init(_ connections: [SQLiteLedgerConnection]) {
        all = connections
        state = LockedValue(State(free: connections))
    }

    /// A free connection, or `nil` when there are none at all (an in-memory ledger).
    func take() async -> SQLiteLedgerConnection? {
        guard !all.isEmpty else { return nil }
        if let free = state.withLock({ $0.free.popLast() }) { return free }
        return await withCheckedContinuation { continuation in
            let free = state.withLock { state -> SQLiteLedgerConnection? in
                if let free = state.free.popLast() { return free }
                state.waiting.append(continuation)
                return nil
            }
            if let free { continuation.resume(returning: free) }
        }
    }

    func give(_ connection: SQLiteLedgerConnection) {
        let waiter = state.withLock { state -> CheckedContinuation<SQLiteLedgerConnection, Never>? in
            guard !state.waiting.isEmpty else {
                state.free.append(connection)
                return nil
            }
            return state.waiting.removeFirst()
        }
        waiter?.resume(returning: connection)
    }
}
