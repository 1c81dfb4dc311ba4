import Foundation
import GRDB
import OfferCodes

/// Claims on SQLite (``ClaimRequest``): a group of them in one `BEGIN IMMEDIATE` transaction, each
/// in a savepoint of its own, so that one that fails (damage, say) leaves the others' assignments.
enum SQLiteClaim {
    /// The code a recipient holds in a scope: `recipient, batch_id, seq, code, digest, channel,
    /// assigned_at` (bind campaign, offer, environment, recipient).
    static let heldSQL = """
        SELECT a.recipient, a.batch_id, a.seq, COALESCE(c.code, c.code_key), c.digest, a.channel, a.assigned_at
        FROM assignments a JOIN codes c ON c.batch_id = a.batch_id AND c.seq = a.seq
        WHERE a.campaign = ? AND a.offer = ? AND a.environment = ? AND a.recipient = ?
        """

    /// Records an assignment (bind batch_id, seq, campaign, offer, environment, recipient, shared,
    /// channel, assigned_at).
    static let insertSQL = """
        INSERT INTO assignments (batch_id, seq, campaign, offer, environment, recipient, shared, channel, assigned_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// The lane whose next code comes first, of a batch of personal codes (bind batch_id).
    static let personalLaneSQL = laneSQL(order: "lane + taken * step")

    /// The first code with room, of a batch of shared codes (bind batch_id).
    static let sharedLaneSQL = laneSQL(order: "lane")

    private static func laneSQL(order: String) -> String {
        "SELECT \(CodeLane.columns) FROM code_lanes WHERE batch_id = ? AND taken < capacity ORDER BY \(order) LIMIT 1"
    }

    /// Runs `requests` in one transaction and commits it; one result per request, in order.
    static func commit(_ requests: [ClaimRequest], db: Database, path: String) throws
        -> [Result<ClaimOutcome, any Error>]
    {
        // Statements prepared once per connection rather than parsed again for every group; a
        // group of one needs no savepoint: its failure leaves nothing to keep.
        func run(_ sql: String) throws { try db.cachedStatement(sql: sql).execute() }
        try run("BEGIN IMMEDIATE")
        var results: [Result<ClaimOutcome, any Error>] = []
        do {
            if requests.count == 1 {
                do {
                    results.append(.success(try claim(requests[0], db: db, path: path)))
                } catch {
                    // SQLite may have rolled back already (a full disk, an I/O error).
                    if db.isInsideTransaction { try run("ROLLBACK") }
                    return [.failure(SQLiteLedgerStore.translate(error, path: path, operation: "claim a code"))]
                }
            } else {
                for request in requests {
                    try run("SAVEPOINT claim")
                    do {
                        results.append(.success(try claim(request, db: db, path: path)))
                        try run("RELEASE claim")
                    } catch {
                        // SQLite rolled the whole transaction back itself: the group's claims are gone.
                        guard db.isInsideTransaction else { throw error }
                        try run("ROLLBACK TO claim")
                        try run("RELEASE claim")
                        results.append(
                            .failure(SQLiteLedgerStore.translate(error, path: path, operation: "claim a code")))
                    }
                }
            }
            try run("COMMIT")
        } catch {
            if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK") }
            throw error
        }
        return results
    }

    /// One claim, inside the group's transaction (which holds the file's write lock).
    private static func claim(_ request: ClaimRequest, db: Database, path: String) throws -> ClaimOutcome {
        let scope = request.scope
        let campaign = LedgerValue.text(scope.campaign)
        let offer = LedgerValue.text(scope.offer)
        let environment = LedgerValue.text(scope.environment.rawValue)
        let recipient = LedgerValue.text(request.recipient)
        if var values = try SQLiteRows.one(db, heldSQL, binding: [campaign, offer, environment, recipient]) {
            try verify(values, from: 1, db: db, path: path)
            values.remove(at: 4)
            values.removeFirst()
            return .held(values)
        }
        guard
            let state = try SQLiteRows.one(
                db, "SELECT active, revision FROM offers WHERE campaign = ? AND name = ?", binding: [campaign, offer])
        else { return .stale }
        let offerRow = StoredRow(state, table: "offer \(ProblemText.quoted(scope.offer))", path: path)
        guard try offerRow.integer(1, "revision") == request.revision else { return .stale }
        guard try offerRow.boolean(0, "active") else { return .inactive }
        for batchId in request.batchIds {
            guard
                let values = try SQLiteRows.one(
                    db, request.shared ? sharedLaneSQL : personalLaneSQL, binding: [.integer(batchId)])
            else { continue }
            let lane = try CodeLane(values, path: path)
            let seq = lane.nextSeq
            guard
                let code = try SQLiteRows.one(
                    db, "SELECT ?, ?, COALESCE(code, code_key), digest FROM codes WHERE batch_id = ? AND seq = ?",
                    binding: [.integer(batchId), .integer(seq), .integer(batchId), .integer(seq)])
            else {
                throw LedgerError.corrupt(
                    path: path, reason: "code number \(seq + 1) of batches row \(batchId) is missing from the ledger")
            }
            try verify(code, from: 0, db: db, path: path)
            let assignedAt = LedgerTimestamp.text(request.assignedAt)
            let channel = LedgerValue.text(request.channel.rawValue)
            let at = LedgerValue.text(assignedAt)
            try SQLiteRows.execute(
                db, insertSQL,
                binding: [
                    .integer(batchId), .integer(seq), campaign, offer, environment, recipient,
                    .integer(request.shared ? 1 : 0), channel, at,
                ])
            try SQLiteRows.execute(
                db, "UPDATE code_lanes SET taken = taken + 1 WHERE batch_id = ? AND lane = ?",
                binding: [.integer(batchId), .integer(lane.lane)])
            return .assigned([code[0], code[1], code[2], channel, at])
        }
        return .exhausted
    }

    /// Checks the code of a row (`batch_id, seq, code, digest` from column `first`) against its digest.
    private static func verify(_ values: [LedgerValue], from first: Int, db: Database, path: String) throws {
        let row = StoredRow(values, table: "a codes row", path: path)
        let batchId = try row.id(first, "batch_id")
        let seq = try row.integer(first + 1, "seq")
        let code = try row.text(first + 2, "code")
        guard try row.blob(first + 3, "digest") == CodeDigest.of(batchId: batchId, seq: seq, code: code) else {
            let batch = try SQLiteRows.one(db, "SELECT \(StoredBatch.columns) FROM batches WHERE id = ?", [batchId])
                .map { try StoredBatch($0, path: path) }
            throw LedgerError.corrupt(
                path: path,
                reason:
                    "code number \(seq + 1) of \(batch.map { StoredBatch.describe($0.batch) } ?? "batches row \(batchId)") "
                    + "does not match its digest: it changed after OfferKit recorded it")
        }
    }
}
