import GRDB

extension SQLiteLedger: LedgerSnapshotReader {
    /// The ledger file (or `:memory:`), as messages name it.
    package var copyName: String { LedgerLocation.redacted(path ?? Self.memoryLabel) }

    /// Streams every row into `sink` from one read transaction; see
    /// ``LedgerSnapshotReader/streamSnapshot(into:)``. The transaction holds SQLite's shared lock
    /// until it ends: other processes read meanwhile, but a writer waits for it (and gives up
    /// after 10 seconds).
    package func streamSnapshot(into sink: any LedgerRowSink) throws {
        let label = path ?? Self.memoryLabel
        try read("read the ledger to copy it") { db in
            let reader = SQLiteSnapshot(db: db, path: label)
            try sink.apps(reader.apps())
            try sink.campaigns(reader.campaigns())
            try sink.offers(reader.offers())
            let batches = try reader.batches()
            try sink.batches(batches)
            for batch in batches { try reader.codes(of: batch, into: sink) }
            try reader.assignments(into: sink)
            try reader.connectResources(into: sink)
        }
    }
}

/// The copy's reads of an SQLite ledger, inside its read transaction. Every value must have the
/// type OfferKit writes (``LedgerError/corrupt(path:reason:)`` otherwise).
private struct SQLiteSnapshot {
    let db: Database
    let path: String

    func apps() throws -> [LedgerRow.App] {
        try rows("SELECT id, app_apple_id FROM apps ORDER BY id", table: "apps") { row in
            LedgerRow.App(id: try row.integer(0, "id"), appAppleId: try row.text(1, "app_apple_id"))
        }
    }

    func campaigns() throws -> [LedgerRow.Campaign] {
        try rows(
            "SELECT rowid, name, app_id, bundle_id, recorded_at FROM campaigns ORDER BY rowid", table: "campaigns"
        ) { row in
            LedgerRow.Campaign(
                order: try row.integer(0, "rowid"), name: try row.text(1, "name"), appId: try row.integer(2, "app_id"),
                bundleId: try row.text(3, "bundle_id"), recordedAt: try row.timestamp(4, "recorded_at"))
        }
    }

    func offers() throws -> [LedgerRow.Offer] {
        try rows(
            """
            SELECT rowid, campaign, name, product_type, product_asc_id, product_id, active FROM offers ORDER BY rowid
            """, table: "offers"
        ) { row in
            LedgerRow.Offer(
                order: try row.integer(0, "rowid"), campaign: try row.text(1, "campaign"),
                name: try row.text(2, "name"),
                productType: try row.text(3, "product_type"), productAscId: try row.text(4, "product_asc_id"),
                productId: try row.text(5, "product_id"), active: try row.boolean(6, "active"))
        }
    }

    /// Every batch, through the ledger's checks (``StoredBatch``), with its `recorded_at`.
    func batches() throws -> [LedgerRow.Batch] {
        var times: [Int64: LedgerRow.Timestamp] = [:]
        for (id, time) in try rows(
            "SELECT id, recorded_at FROM batches", table: "batches",
            { row in
                (try row.integer(0, "id"), try row.timestamp(1, "recorded_at"))
            })
        {
            times[id] = time
        }
        return try StoredBatch.fetchAll(db, path: path).map { stored in
            guard let time = times[stored.id] else {
                throw LedgerError.corrupt(path: path, reason: "batches row \(stored.id) changed while it was read")
            }
            return LedgerRow.Batch(
                id: stored.id, batch: stored.batch, storedCodes: stored.storedCodes, codesDigest: stored.codesDigest,
                recordedAt: time)
        }
    }

    /// Every code row of the batch, in `seq` order, a chunk at a time.
    func codes(of batch: LedgerRow.Batch, into sink: any LedgerRowSink) throws {
        let statement = try db.cachedStatement(
            sql: "SELECT seq, app_id, code_key, code FROM codes WHERE batch_id = ? ORDER BY seq")
        let cursor = try Row.fetchCursor(statement, arguments: [batch.id])
        var chunk: [LedgerRow.Code] = []
        chunk.reserveCapacity(min(LedgerCopy.chunkSize, max(batch.storedCodes, 1)))
        while let values = try cursor.next() {
            let row = CopyRow(row: values, path: path, table: "codes")
            let code: String?
            if (values[3] as DatabaseValue).isNull { code = nil } else { code = try row.text(3, "code") }
            chunk.append(
                LedgerRow.Code(
                    seq: try row.integer(0, "seq"), appId: try row.integer(1, "app_id"),
                    key: try row.text(2, "code_key"), code: code))
            if chunk.count == LedgerCopy.chunkSize {
                try sink.codes(chunk, of: batch)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        if !chunk.isEmpty { try sink.codes(chunk, of: batch) }
    }

    /// Every assignment, in recorded order, a chunk at a time.
    func assignments(into sink: any LedgerRowSink) throws {
        let cursor = try Row.fetchCursor(
            db,
            sql: """
                SELECT id, batch_id, seq, campaign, offer, environment, recipient, shared, channel, assigned_at
                FROM assignments ORDER BY id
                """)
        var chunk: [LedgerRow.Assignment] = []
        while let values = try cursor.next() {
            let row = CopyRow(row: values, path: path, table: "assignments")
            guard let environment = CodeEnvironment(rawValue: try row.text(5, "environment")) else {
                throw row.corrupt("environment", "PRODUCTION or SANDBOX")
            }
            guard let channel = AssignmentChannel(rawValue: try row.text(8, "channel")) else {
                throw row.corrupt("channel", "export or claim")
            }
            chunk.append(
                LedgerRow.Assignment(
                    id: try row.integer(0, "id"), batchId: try row.integer(1, "batch_id"),
                    seq: try row.integer(2, "seq"), campaign: try row.text(3, "campaign"),
                    offer: try row.text(4, "offer"), environment: environment, recipient: try row.text(6, "recipient"),
                    shared: try row.boolean(7, "shared"), channel: channel,
                    assignedAt: try row.timestamp(9, "assigned_at")))
            if chunk.count == LedgerCopy.chunkSize {
                try sink.assignments(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        if !chunk.isEmpty { try sink.assignments(chunk) }
    }

    /// Every App Store Connect resource, in `id` order (the plan's), a chunk at a time.
    func connectResources(into sink: any LedgerRowSink) throws {
        let cursor = try Row.fetchCursor(
            db,
            sql: """
                SELECT id, campaign, offer, kind, key, request_id, resource_type, state, asc_id, body_digest, error,
                    updated_at
                FROM connect_resources ORDER BY id
                """)
        var chunk: [LedgerRow.ConnectResource] = []
        while let values = try cursor.next() {
            let row = CopyRow(row: values, path: path, table: "connect_resources")
            guard let kind = ConnectResource.Kind(rawValue: try row.text(3, "kind")) else {
                throw row.corrupt("kind", "offer, oneTimeUse or customCode")
            }
            guard let state = ConnectResource.State(rawValue: try row.text(7, "state")) else {
                throw row.corrupt("state", "planned, sent, created or failed")
            }
            chunk.append(
                LedgerRow.ConnectResource(
                    id: try row.integer(0, "id"), campaign: try row.text(1, "campaign"),
                    offer: try row.text(2, "offer"), kind: kind, key: try row.text(4, "key"),
                    requestId: try row.text(5, "request_id"), resourceType: try row.text(6, "resource_type"),
                    state: state, ascId: try row.optionalText(8, "asc_id"), bodyDigest: try row.text(9, "body_digest"),
                    error: try row.optionalText(10, "error"), updatedAt: try row.timestamp(11, "updated_at")))
            if chunk.count == LedgerCopy.chunkSize {
                try sink.connectResources(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        if !chunk.isEmpty { try sink.connectResources(chunk) }
    }

    private func rows<T>(_ sql: String, table: String, _ decode: (CopyRow) throws -> T) throws -> [T] {
        let cursor = try Row.fetchCursor(db, sql: sql)
        var result: [T] = []
        while let row = try cursor.next() { result.append(try decode(CopyRow(row: row, path: path, table: table))) }
        return result
    }
}

/// Typed access to a row's columns; a value of another type is corruption (the value is not shown).
private struct CopyRow {
    let row: Row
    let path: String
    let table: String

    func integer(_ index: Int, _ column: String) throws -> Int64 {
        guard case .int64(let number) = (row[index] as DatabaseValue).storage else {
            throw corrupt(column, "a whole number")
        }
        return number
    }

    func text(_ index: Int, _ column: String) throws -> String {
        guard case .string(let text) = (row[index] as DatabaseValue).storage else { throw corrupt(column, "text") }
        return text
    }

    /// Text or `NULL`.
    func optionalText(_ index: Int, _ column: String) throws -> String? {
        if (row[index] as DatabaseValue).isNull { return nil }
        return try text(index, column)
    }

    func boolean(_ index: Int, _ column: String) throws -> Bool {
        let number = try integer(index, column)
        guard number == 0 || number == 1 else { throw corrupt(column, "0 or 1") }
        return number == 1
    }

    func timestamp(_ index: Int, _ column: String) throws -> LedgerRow.Timestamp {
        guard let time = LedgerRow.Timestamp(try text(index, column)) else {
            throw corrupt(column, "a time written YYYY-MM-DDTHH:MM:SS.sssZ")
        }
        return time
    }

    func corrupt(_ column: String, _ expected: String) -> LedgerError {
        .corrupt(path: path, reason: "a \(table) row: the column \(column) does not hold \(expected)")
    }
}
