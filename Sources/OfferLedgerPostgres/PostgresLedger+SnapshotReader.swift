import OfferCodes
import PostgresNIO

extension PostgresLedger: LedgerSnapshotReader {
    /// The ledger's URL without its password.
    package var copyName: String { description }

    /// Streams every row into `sink` from one `REPEATABLE READ READ ONLY` transaction (one
    /// snapshot; it takes no lock, so writers go on meanwhile); see
    /// ``LedgerSnapshotReader/streamSnapshot(into:)``. Codes and assignments come
    /// ``LedgerCopy/chunkSize`` rows per round trip, by key (`seq`, `id`) rather than by offset.
    package func streamSnapshot(into sink: any LedgerRowSink) throws {
        let label = label
        try transaction(.read, "read the ledger to copy it") { session in
            let reader = PostgresSnapshot(session: session, label: label)
            try sink.apps(reader.apps())
            try sink.campaigns(reader.campaigns())
            try sink.offers(reader.offers())
            let batches = try reader.batches()
            try sink.batches(batches)
            for batch in batches { try reader.codes(of: batch, into: sink) }
            try reader.assignments(into: sink)
        }
    }
}

/// The copy's reads of a PostgreSQL ledger, inside its read transaction.
private struct PostgresSnapshot {
    let session: PostgresSession
    let label: String

    func apps() throws -> [LedgerRow.App] {
        try session.query("SELECT id, app_apple_id FROM apps ORDER BY id").map { row in
            let (id, appAppleId) = try row.decode((Int64, String).self)
            return LedgerRow.App(id: id, appAppleId: appAppleId)
        }
    }

    func campaigns() throws -> [LedgerRow.Campaign] {
        try session.query(
            """
            SELECT seq, name, app_id, bundle_id,
                to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
            FROM campaigns ORDER BY seq
            """
        ).map { row in
            let (order, name, appId, bundleId, time) = try row.decode((Int64, String, Int64, String, String).self)
            return LedgerRow.Campaign(
                order: order, name: name, appId: appId, bundleId: bundleId,
                recordedAt: try timestamp(time, "campaigns.recorded_at"))
        }
    }

    func offers() throws -> [LedgerRow.Offer] {
        try session.query(
            """
            SELECT seq, campaign, name, product_type, product_asc_id, product_id, active FROM offers ORDER BY seq
            """
        ).map { row in
            let (order, campaign, name, productType, productAscId, productId, active) = try row.decode(
                (Int64, String, String, String, String, String, Bool).self)
            return LedgerRow.Offer(
                order: order, campaign: campaign, name: name, productType: productType, productAscId: productAscId,
                productId: productId, active: active)
        }
    }

    /// Every batch, through the ledger's checks (``PostgresStoredBatch``), with its `recorded_at`.
    func batches() throws -> [LedgerRow.Batch] {
        var times: [Int64: LedgerRow.Timestamp] = [:]
        for row in try session.query(
            """
            SELECT id, to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') FROM batches
            """)
        {
            let (id, time) = try row.decode((Int64, String).self)
            times[id] = try timestamp(time, "batches.recorded_at")
        }
        return try PostgresStoredBatch.fetchAll(session, label: label).map { stored in
            guard let time = times[stored.id] else {
                throw LedgerError.corrupt(path: label, reason: "batches row \(stored.id) changed while it was read")
            }
            return LedgerRow.Batch(
                id: stored.id, batch: stored.batch, storedCodes: stored.storedCodes, codesDigest: stored.codesDigest,
                recordedAt: time)
        }
    }

    /// Every code row of the batch, in `seq` order, one chunk per round trip.
    ///
    /// A chunk comes as one array of keys, plus what the rows have in common: the first `seq`
    /// when they are numbered without gaps, the app when it is the same for all, no array of
    /// codes as issued when every one equals its key (the usual case). Only a chunk that differs
    /// sends those columns as arrays too. The values are the rows' own either way, so the copy
    /// checks them (it refuses gaps and other apps); this only saves decoding them one by one,
    /// which cost more than the query.
    func codes(of batch: LedgerRow.Batch, into sink: any LedgerRowSink) throws {
        var after = Int64.min
        let limit = Int64(LedgerCopy.chunkSize)
        while true {
            let rows = try session.query(
                """
                SELECT count(*), min(seq), max(seq), min(app_id), max(app_id),
                    array_agg(code_key ORDER BY seq),
                    CASE WHEN bool_or(code IS NOT NULL) THEN array_agg(COALESCE(code, '') ORDER BY seq) END,
                    CASE WHEN max(seq) - min(seq) + 1 <> count(*) THEN array_agg(seq ORDER BY seq) END,
                    CASE WHEN min(app_id) <> max(app_id) THEN array_agg(app_id ORDER BY seq) END
                FROM (SELECT seq, app_id, code_key, code FROM codes WHERE batch_id = \(batch.id) AND seq > \(after)
                    ORDER BY seq LIMIT \(limit)) AS chunk
                """)
            guard let row = rows.first else { return }
            let (count, firstSeq, lastSeq, firstApp, _, keys, codes, seqs, apps) = try row.decode(
                (Int64, Int64?, Int64?, Int64?, Int64?, [String]?, [String]?, [Int64]?, [Int64]?).self)
            guard count > 0, let firstSeq, let lastSeq, let firstApp, let keys else { return }
            guard keys.count == Int(count), codes.map({ $0.count == keys.count }) ?? true,
                seqs.map({ $0.count == keys.count }) ?? true, apps.map({ $0.count == keys.count }) ?? true
            else {
                throw LedgerError.corrupt(path: label, reason: "the codes of batch \(batch.id) could not be read")
            }
            var chunk: [LedgerRow.Code] = []
            chunk.reserveCapacity(keys.count)
            for index in keys.indices {
                let code = codes.map { $0[index] }
                chunk.append(
                    LedgerRow.Code(
                        seq: seqs?[index] ?? firstSeq + Int64(index), appId: apps?[index] ?? firstApp,
                        key: keys[index], code: code?.isEmpty == false ? code : nil))
            }
            try sink.codes(chunk, of: batch)
            if count < limit { return }
            after = lastSeq
        }
    }

    /// Every assignment, in recorded order, a chunk per round trip.
    func assignments(into sink: any LedgerRowSink) throws {
        var after = Int64.min
        let limit = Int64(LedgerCopy.chunkSize)
        while true {
            let rows = try session.query(
                """
                SELECT id, batch_id, seq, campaign, offer, environment, recipient, shared, channel,
                    to_char(assigned_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
                FROM assignments WHERE id > \(after) ORDER BY id LIMIT \(limit)
                """)
            var chunk: [LedgerRow.Assignment] = []
            chunk.reserveCapacity(rows.count)
            for row in rows {
                let (id, batchId, seq, campaign, offer, environmentText, recipient, shared, channelText, time) =
                    try row.decode((Int64, Int64, Int64, String, String, String, String, Bool, String, String).self)
                guard let environment = CodeEnvironment(rawValue: environmentText),
                    let channel = AssignmentChannel(rawValue: channelText)
                else {
                    throw LedgerError.corrupt(
                        path: label, reason: "assignments row \(id) names an unknown environment or channel")
                }
                chunk.append(
                    LedgerRow.Assignment(
                        id: id, batchId: batchId, seq: seq, campaign: campaign, offer: offer, environment: environment,
                        recipient: recipient, shared: shared, channel: channel,
                        assignedAt: try timestamp(time, "assignments.assigned_at")))
            }
            guard let last = chunk.last else { return }
            try sink.assignments(chunk)
            if Int64(chunk.count) < limit { return }
            after = last.id
        }
    }

    private func timestamp(_ text: String, _ column: String) throws -> LedgerRow.Timestamp {
        guard let time = LedgerRow.Timestamp(text) else {
            throw LedgerError.corrupt(path: label, reason: "a value in \(column) is not a time OfferKit can copy")
        }
        return time
    }
}
