import OfferCodes

extension CodeLedger {
    /// Streams every row of the ledger into `sink` (see ``LedgerRowSink`` for the order), all of
    /// it read in one read transaction, so that it is one commit's state, whatever other
    /// processes write meanwhile. Codes, assignments and App Store Connect resources are read a
    /// chunk at a time, never all at once. Rows are checked as the ledger's own reads check them
    /// (values of the types and ranges OfferKit writes, batch rows matching their checksums);
    /// anything else throws ``LedgerError/corrupt(path:reason:)``.
    ///
    /// On SQLite the read transaction keeps its snapshot of the write-ahead log: writers go on
    /// meanwhile. On PostgreSQL it is `REPEATABLE READ READ ONLY` and takes no lock.
    package func streamSnapshot(into sink: any LedgerRowSink) async throws {
        try await store.read("read the ledger to copy it") { tx in
            try await sink.apps(try await rows(tx, .apps) { try LedgerRow.App($0, path: name) })
            try await sink.campaigns(try await rows(tx, .campaigns) { try LedgerRow.Campaign($0, path: name) })
            try await sink.offers(try await rows(tx, .offers) { try LedgerRow.Offer($0, path: name) })
            var times: [Int64: LedgerRow.Timestamp] = [:]
            for values in try await tx.batchTimes() {
                let row = StoredRow(values, table: "a batches row", path: name)
                times[try row.integer(0, "id")] = try row.timestamp(1, "recorded_at")
            }
            let batches = try await batches(tx, .all).map { stored in
                guard let time = times[stored.id] else {
                    throw LedgerError.corrupt(path: name, reason: "batches row \(stored.id) changed while it was read")
                }
                return LedgerRow.Batch(
                    id: stored.id, batch: stored.batch, storedCodes: stored.storedCodes,
                    codesDigest: stored.codesDigest, recordedAt: time)
            }
            try await sink.batches(batches)
            for batch in batches {
                var after: Int64 = .min
                while true {
                    let chunk = try await tx.copyCodeRows(batchId: batch.id, afterSeq: after, limit: Self.chunkSize)
                        .map { try LedgerRow.Code($0, path: name) }
                    guard let last = chunk.last else { break }
                    try await sink.codes(chunk, of: batch)
                    if chunk.count < Self.chunkSize { break }
                    after = last.seq
                }
            }
            try await chunks(tx, .assignments, { try LedgerRow.Assignment($0, path: name) }) {
                try await sink.assignments($0)
            }
            try await chunks(tx, .connectResources, { try LedgerRow.ConnectResource($0, path: name) }) {
                try await sink.connectResources($0)
            }
            try await chunks(tx, .pricePoints, { try LedgerRow.PricePoint($0, path: name) }) {
                try await sink.pricePoints($0)
            }
        }
    }

    /// Every row of a small table, decoded.
    private func rows<Row>(_ tx: any LedgerTransaction, _ table: LedgerTable, _ decode: ([LedgerValue]) throws -> Row)
        async throws -> [Row]
    {
        var all: [Row] = []
        try await chunks(tx, table, decode) { all += $0 }
        return all
    }

    /// The rows of a table a chunk at a time, in the order of their first column (an id or the
    /// order recorded).
    private func chunks<Row>(
        _ tx: any LedgerTransaction, _ table: LedgerTable, _ decode: ([LedgerValue]) throws -> Row,
        _ body: ([Row]) async throws -> Void
    ) async throws {
        var after: Int64 = .min
        while true {
            let values = try await tx.copyRows(table, afterKey: after, limit: Self.chunkSize)
            guard let last = values.last else { return }
            let rows = try values.map(decode)
            try await body(rows)
            if values.count < Self.chunkSize { return }
            after = try StoredRow(last, table: "a \(table.rawValue) row", path: name).integer(0, "id")
        }
    }
}
