import GRDB

/// One SQLite connection of the ledger, and the executor its statements run on.
///
/// Every step of a transaction runs GRDB's synchronous API on the connection's own
/// ``SerialQueueExecutor`` (`withTaskExecutorPreference`); libdispatch runs it on that
/// executor's thread, which is never one of Swift's pool, so no pool thread waits for the disk
/// or for another process's lock. A task that is already on the executor does not hop at all:
/// a caller that claims codes one after another can run its loop there
/// (``CodeLedger/writeExecutor``), and each claim then runs where it was asked for.
///
/// Kept because a benchmark row shows it pays (`offerkit-ledger-bench`, release build, 2 cores,
/// one process claiming one code at a time on SQLite): going to the connection's thread and back
/// wakes the other, idle CPU twice per claim, and the loop on the executor made 3,792–4,084
/// claims/s against 3,129–3,521/s on Swift's pool in paired runs. See `docs/performance.md`.
final class SQLiteLedgerConnection: Sendable {
    /// The connection (a GRDB queue: its synchronous API, called from ``executor`` only).
    let database: DatabaseQueue
    /// Where the connection's statements run.
    let executor: SerialQueueExecutor

    init(_ database: DatabaseQueue, executor: SerialQueueExecutor = SerialQueueExecutor(label: label)) {
        self.database = database
        self.executor = executor
    }

    /// Opens a connection on the executor it will run on: `open` (GRDB opens a file
    /// synchronously and reads its schema, which waits in the busy handler while another
    /// connection holds the file exclusively, such as one creating the same new ledger) runs
    /// there, never on Swift's pool, where a few such waits would leave no thread for the task
    /// that holds the lock. Its errors pass unchanged.
    static func open(_ open: () throws -> DatabaseQueue) async throws -> SQLiteLedgerConnection {
        let executor = SerialQueueExecutor(label: label)
        let database = try await withTaskExecutorPreference(executor) {
            executor.assertOnQueue()
            return try open()
        }
        return SQLiteLedgerConnection(database, executor: executor)
    }

    /// The label of each connection's queue.
    private static let label = "OfferKit code ledger connection"

    /// Runs `body` on the connection, on its executor, and returns when it has run; SQLite and
    /// GRDB failures become ``LedgerError``. Not cancelled with the calling task: a transaction's
    /// statements all run, or its end rolls it back.
    func run<T: Sendable>(
        label: String, operation: String, _ body: (Database) throws -> T
    ) async throws -> T {
        try await withTaskExecutorPreference(executor) {
            // GRDB's synchronous API waits for the disk: never anywhere but on the executor.
            executor.assertOnQueue()
            do {
                return try database.inDatabase(body)
            } catch {
                throw SQLiteLedgerStore.translate(error, path: label, operation: operation)
            }
        }
    }

    /// Closes the connection (see ``SQLiteLedgerStore/closeConnections()``).
    func close() async throws {
        try await withTaskExecutorPreference(executor) {
            executor.assertOnQueue()
            try database.close()
        }
    }
}
