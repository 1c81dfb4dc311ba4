import Foundation
import OfferCodes

/// Where OfferKit remembers campaigns, offers and every code it issued, so a later campaign never
/// reuses a code and any run can be exported again; every code handed out (to whom, how, when);
/// and the App Store Connect resources `codes apply` sent.
///
/// One ledger, whatever keeps its rows: SQLite (``sqlite(path:access:)``, one file, the default)
/// or PostgreSQL (`CodeLedger.withPostgres(_:access:_:)` in `OfferLedgerPostgres`, for hosts that
/// share a ledger). The decisions are made here, once, for both: what a claim hands out, the
/// quarterly and active-offer limits, the integrity checks, the status arithmetic, how every row
/// decodes and which values are in range. A backend only runs SQL (`LedgerStore`).
///
/// ## Transactions and other processes
///
/// Every method that writes is atomic (it keeps all of its changes, or none, also when the
/// process is killed) and isolated from other writers, in other processes and on other hosts
/// too: what it reads to decide (is the batch recorded, is the code taken, how many codes the
/// quarter holds, how many offers are active) cannot change before its changes are committed.
/// ``recordBatch(_:campaign:codes:progress:)`` enforces Apple's limits that way, so that runs
/// validated at the same time cannot together go over them. A commit is durable before a method
/// returns (SQLite: `synchronous = FULL`; PostgreSQL refuses a session whose `synchronous_commit`
/// is off). Reads see the ledger as of one commit.
///
/// A claim (``claim(recipient:scope:)``) is one short transaction: it reads the offer's batches
/// once (and again only when they change), then takes the next code from the batch's lanes
/// (`CodeLane`) in one statement that also checks the code's row against its digest.
///
/// ## Damage
///
/// A ledger that finds itself damaged throws ``LedgerError/corrupt(path:reason:)`` rather than
/// return less, or other, than was recorded: every batch row carries a checksum, every batch the
/// digest of its codes (checked when codes enter and leave in bulk: opening, recording,
/// importing, exporting, status, copies), every code row a digest of its own (checked on every
/// row read, a claim's too).
///
/// ## Read-only
///
/// A ledger opened ``LedgerAccess/readOnly`` is neither created nor migrated, and every method
/// that would write throws ``LedgerError/readOnly(path:operation:)``.
public final class CodeLedger: AppCodeHistory, Sendable {
    package let store: any LedgerStore
    /// Whether the ledger may be written.
    public let access: LedgerAccess
    /// The batches each offer's claims take codes from, read once per revision of the offer.
    let plans = LockedValue<[ClaimPlan.Key: ClaimPlan]>([:])
    /// Each campaign's app, once read: a campaign's app never changes in a ledger.
    let apps = LockedValue<[String: CampaignApp]>([:])

    package init(store: any LedgerStore, access: LedgerAccess) {
        self.store = store
        self.access = access
    }

    /// The ledger as messages name it: the file's path (`:memory:` in memory), or its URL without
    /// the password.
    public var name: String { store.name }

    /// The executor where the ledger's write transactions run (an SQLite ledger's write
    /// connection: a serial queue of its own, never a thread of Swift's pool), or `nil` when they
    /// have none (PostgreSQL's run on the event loop of whichever connection they get).
    ///
    /// A task that claims codes one after another, each waiting for the one before it, runs
    /// quicker on it: each claim then runs where it is asked for, instead of going to the
    /// connection's thread and back (which, on a machine whose other CPU is idle, wakes that CPU
    /// twice a claim).
    ///
    /// ```swift
    /// try await withTaskExecutorPreference(ledger.writeExecutor) {
    ///     for recipient in recipients {
    ///         _ = try await ledger.claim(recipient: recipient, scope: scope)
    ///     }
    /// }
    /// ```
    ///
    /// Only for such a loop: everything the task does on it (nonisolated work) waits for the
    /// ledger's writes and holds them up, so keep other work, and concurrent requests, off it.
    public var writeExecutor: (any TaskExecutor)? { store.writeExecutor }

    /// Closes the ledger's connections (an SQLite file's last connection folds the write-ahead
    /// log into the file and removes `-wal` and `-shm`); the ledger must not be used afterwards.
    /// Without it they close when the ledger is let go.
    package func closeConnections() async throws { try await store.closeConnections() }

    /// Throws ``LedgerError/readOnly(path:operation:)`` when the ledger was opened read-only.
    func requireWritable(_ operation: @autoclosure () -> String) throws {
        guard access == .readWrite else { throw LedgerError.readOnly(path: name, operation: operation()) }
    }

    /// Checks what a newly opened ledger holds (every batch row against its checksum) and gives
    /// batches without code lanes theirs (a ledger migrated from an earlier OfferKit).
    package func opened() async throws -> CodeLedger {
        let missing = try await store.read("check the ledger's batches") { tx in
            let batches = try await batches(tx, .all)
            let withLanes = Set(
                try await tx.batchesWithLanes().map {
                    try StoredRow($0, table: "a code_lanes row", path: name).id(0, "batch_id")
                })
            return batches.filter { $0.storedCodes > 0 && !withLanes.contains($0.id) }
        }
        if !missing.isEmpty, access == .readWrite {
            try await store.write(.ledger, "give the batches their code lanes") { tx in
                try await buildLanes(tx, for: missing)
            }
        }
        return self
    }

    /// Every batch row of `selection`, checked.
    func batches(_ tx: any LedgerTransaction, _ selection: BatchSelection) async throws -> [StoredBatch] {
        try await tx.batchRows(selection).map { try StoredBatch($0, path: name) }
    }

    /// (Re)builds the code lanes of `batches` from their assignments.
    func buildLanes(_ tx: any LedgerTransaction, for batches: [StoredBatch]) async throws {
        try await tx.deleteLanes(batchIds: batches.map(\.id))
        for batch in batches where batch.storedCodes > 0 {
            var taken: [Int64: Int64] = [:]
            for values in try await tx.laneCounts(
                batchId: batch.id, personalLanes: batch.isPersonal ? CodeLane.personalLanes : nil)
            {
                let row = StoredRow(
                    values, table: "the assignments of \(StoredBatch.describe(batch.batch))", path: name)
                taken[try row.integer(0, "lane")] = try row.integer(1, "count")
            }
            try await CodeLane.lanes(of: batch, taken: taken) { try await tx.insertLanes($0) }
        }
    }

    /// Runs the store's own checks of its files or indexes: SQLite's `PRAGMA quick_check`, or with
    /// `thorough` `PRAGMA integrity_check`, which also checks the index that keeps codes unique
    /// (1.6 s per million codes); on PostgreSQL, which keeps its pages and indexes consistent
    /// itself, every batch row, and with `thorough` every batch's codes against their digests.
    ///
    /// - Throws: ``LedgerError/corrupt(path:reason:)`` with the first problem found.
    public func checkIntegrity(thorough: Bool = false) async throws {
        let indexesChecked = try await store.checkIntegrity(thorough: thorough)
        try await store.read("check the ledger's integrity") { tx in
            let batches = try await batches(tx, .all)
            guard thorough, !indexesChecked else { return }
            for batch in batches { try await checkCodes(tx, of: batch) { _ in } }
        }
    }

    /// Calls `body` with each code of `batch` in the order issued, a chunk at a time, checking
    /// every row against its digest, then all of them against the batch's count and digest.
    /// `body` has seen the codes before a mismatch is found: callers that hand codes out must
    /// discard their output when this throws.
    func checkCodes(_ tx: any LedgerTransaction, of batch: StoredBatch, _ body: (String) throws -> Void)
        async throws
    {
        var check = StoredBatch.CodeCheck(batch, path: name)
        let chunk = Self.chunkSize
        while true {
            let rows = try await tx.codeRows(batchId: batch.id, fromSeq: Int64(check.count), limit: chunk)
            for row in rows { try body(try check.add(row)) }
            if rows.count < chunk { break }
        }
        let read = Int64(check.count)
        try check.finish(extraRows: try await tx.codeRowCount(batchId: batch.id) - read)
    }

    /// Rows read or written in one statement.
    package static let chunkSize = 10_000
}
