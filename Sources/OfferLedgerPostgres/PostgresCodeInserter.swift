import OfferCodes
import PostgresNIO

/// Inserts the codes of one batch inside the caller's write transaction, in multi-row
/// statements, while still telling `insert(code)` at once whether the code was taken.
///
/// The transaction holds the ledger's write lock, so no other writer adds codes until it ends:
/// the codes already issued for the app are fixed. On the first insert the inserter reads them
/// once and keeps a 64-bit fingerprint of each (a hash of the upper-cased code, about 16 bytes
/// per code in memory). A code whose fingerprint is not there is new: it is answered `true` at
/// once and queued. A code whose fingerprint is there (taken, or a rare hash collision) is looked
/// up exactly, after the queue is sent. Queued codes go to the server ``PostgresLedger/insertChunk``
/// at a time, in one `INSERT … SELECT FROM unnest(…) ON CONFLICT DO NOTHING` statement whose
/// inserted row count must equal the queue's: any difference (a writer that bypassed the lock)
/// fails the batch.
final class PostgresCodeInserter {
    private let session: PostgresSession
    private let appId: Int64
    private let batchId: Int64
    private let campaign: String
    private let offer: String

    private var fingerprints: Set<Int>?
    private var keys: [String] = []
    /// The code as issued, or "" when it equals its key (stored as NULL).
    private var originals: [String] = []
    private var sent: Int64 = 0
    /// The insert statement running on the server, and how many codes it sent.
    private var inFlight: (box: ResultBox<Int64>, count: Int)?

    init(_ session: PostgresSession, appId: Int64, batchId: Int64, campaign: String, offer: String) {
        self.session = session
        self.appId = appId
        self.batchId = batchId
        self.campaign = campaign
        self.offer = offer
    }

    /// Calls `insertCodes` with the insert function of ``CodeLedger/recordBatch(_:campaign:insertCodes:)``.
    ///
    /// Once an insert has failed, every later insert fails with the same error, and so does this
    /// method even if `insertCodes` swallowed the error.
    func run(_ insertCodes: (_ insert: (String) throws -> Bool) throws -> Void) throws -> BatchDigest {
        var failure: (any Error)?
        var digest = BatchDigest()
        try insertCodes { code in
            if let failure { throw failure }
            do {
                guard !code.isEmpty else { throw LedgerError.emptyCode(campaign: campaign, offer: offer) }
                guard try insert(code) else { return false }
                digest.add(code)
                return true
            } catch {
                failure = error
                throw error
            }
        }
        if let failure { throw failure }
        try flush()
        try finish()
        return digest
    }

    private func insert(_ code: String) throws -> Bool {
        let (key, keyIsCode) = CodeInserter.key(code)
        let fingerprint = key.hashValue
        if fingerprints == nil { fingerprints = try loadFingerprints() }
        if fingerprints!.contains(fingerprint) {
            try flush()
            try finish()
            let rows = try session.query(
                "SELECT EXISTS (SELECT 1 FROM codes WHERE app_id = \(appId) AND code_key = \(key))")
            if try rows.first?.decode(Bool.self) == true { return false }
        } else {
            fingerprints!.insert(fingerprint)
        }
        keys.append(key)
        originals.append(keyIsCode ? "" : code)
        if keys.count >= PostgresLedger.insertChunk { try flush() }
        return true
    }

    /// The fingerprints of the codes issued for the app.
    private func loadFingerprints() throws -> Set<Int> {
        let appId = appId
        let logger = session.logger
        return try session.run { connection in
            var fingerprints = Set<Int>()
            let rows = try await connection.query(
                "SELECT code_key FROM codes WHERE app_id = \(appId)", logger: logger)
            for try await key in rows.decode(String.self) { fingerprints.insert(key.hashValue) }
            return fingerprints
        }
    }

    /// Sends the queued codes. The statement runs while the caller goes on drawing codes: the
    /// one before it is waited for (and its count checked) first, and ``finish()`` waits for
    /// the last.
    private func flush() throws {
        try finish()
        guard !keys.isEmpty else { return }
        let (keys, originals, batchId, appId, first) = (keys, originals, batchId, appId, sent)
        let logger = session.logger
        let box = session.submit { connection in
            let rows = try await connection.query(
                """
                WITH inserted AS (
                    INSERT INTO codes (batch_id, seq, app_id, code_key, code)
                    SELECT \(batchId), \(first) + t.ord - 1, \(appId), t.k, NULLIF(t.c, '')
                    FROM unnest(\(keys)::text[], \(originals)::text[]) WITH ORDINALITY AS t(k, c, ord)
                    ON CONFLICT DO NOTHING RETURNING 1)
                SELECT count(*) FROM inserted
                """, logger: logger
            ).collect()
            return try rows.first?.decode(Int64.self) ?? 0
        }
        inFlight = (box, keys.count)
        sent += Int64(keys.count)
        self.keys.removeAll(keepingCapacity: true)
        self.originals.removeAll(keepingCapacity: true)
    }

    /// Waits for the statement in flight, if any, and checks that it inserted every code it sent.
    private func finish() throws {
        guard let (box, count) = inFlight else { return }
        inFlight = nil
        let inserted = try box.wait()
        guard inserted == Int64(count) else {
            throw LedgerError.databaseFailure(
                operation: "insert the codes of offer \"\(offer)\" in campaign \"\(campaign)\"",
                reason: "\(count - Int(inserted)) of \(count) codes were taken by a writer that did not hold the "
                    + "ledger's lock")
        }
    }
}
