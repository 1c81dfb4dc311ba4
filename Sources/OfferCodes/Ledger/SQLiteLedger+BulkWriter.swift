import Foundation
import GRDB
import GRDBSQLite

extension SQLiteLedger: LedgerBulkWriter {
    /// Runs `body` in one `BEGIN IMMEDIATE` transaction (the file's write lock, as every write of
    /// the ledger), with a loader that inserts rows as given; see ``LedgerBulkWriter/bulkLoad(_:)``.
    package func bulkLoad<T>(_ body: (any LedgerBulkLoader) throws -> T) throws -> T {
        let label = path ?? Self.memoryLabel
        return try write("copy a ledger into this one") { db in try body(SQLiteBulkLoader(db: db, path: label)) }
    }
}

/// Inserts copied rows into an SQLite ledger inside the caller's write transaction. Ids are
/// written as given (`rowid` for campaigns and offers), so the order is kept and SQLite numbers
/// what comes next after them. Failures are ``LedgerError`` naming this ledger, so that they are
/// not taken for the source's as they pass through its read.
final class SQLiteBulkLoader: LedgerBulkLoader {
    private let db: Database
    private let path: String

    init(db: Database, path: String) {
        self.db = db
        self.path = path
    }

    func apps(_ rows: [LedgerRow.App]) throws {
        try insert("apps", "INSERT INTO apps (id, app_apple_id) VALUES (?, ?)", rows) { [$0.id, $0.appAppleId] }
    }

    func campaigns(_ rows: [LedgerRow.Campaign]) throws {
        try insert(
            "campaigns", "INSERT INTO campaigns (rowid, name, app_id, bundle_id, recorded_at) VALUES (?, ?, ?, ?, ?)",
            rows
        ) { [$0.order, $0.name, $0.appId, $0.bundleId, $0.recordedAt.sqliteText] }
    }

    func offers(_ rows: [LedgerRow.Offer]) throws {
        try insert(
            "offers",
            """
            INSERT INTO offers (rowid, campaign, name, product_type, product_asc_id, product_id, active)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, rows
        ) { [$0.order, $0.campaign, $0.name, $0.productType, $0.productAscId, $0.productId, $0.active ? 1 : 0] }
    }

    func batches(_ rows: [LedgerRow.Batch]) throws {
        try insert(
            "batches",
            """
            INSERT INTO batches (id, campaign, offer, kind, idx, quarter, redemption_limit, code_count,
                expiration_date, environment, recorded_at, stored_codes, codes_digest, checksum)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, rows
        ) { row in
            let batch = row.batch
            return [
                row.id, batch.campaign, batch.offer, batch.kind.rawValue, batch.index, batch.quarter,
                batch.redemptionLimit, batch.codeCount, batch.expirationDate?.description, batch.environment.rawValue,
                row.recordedAt.sqliteText, row.storedCodes, Data(row.codesDigest), Data(row.checksum),
            ]
        }
    }

    /// Binds and steps with SQLite's C functions, as ``CodeInserter`` does: no argument arrays,
    /// the strings read in place.
    func codes(_ chunk: [LedgerRow.Code], of batch: LedgerRow.Batch) throws {
        try translating("codes") {
            let statement = try db.cachedStatement(
                sql: "INSERT INTO codes (batch_id, seq, app_id, code_key, code) VALUES (?1, ?2, ?3, ?4, ?5)")
            let sqliteStatement = statement.sqliteStatement
            defer { sqlite3_clear_bindings(sqliteStatement) }
            sqlite3_bind_int64(sqliteStatement, 1, batch.id)
            for code in chunk {
                sqlite3_bind_int64(sqliteStatement, 2, code.seq)
                sqlite3_bind_int64(sqliteStatement, 3, code.appId)
                var key = code.key
                let result = key.withUTF8 { keyBytes in
                    Self.bind(keyBytes, at: 4, sqliteStatement)
                    guard var text = code.code else {
                        sqlite3_bind_null(sqliteStatement, 5)
                        return sqlite3_step(sqliteStatement)
                    }
                    return text.withUTF8 { textBytes in
                        Self.bind(textBytes, at: 5, sqliteStatement)
                        return sqlite3_step(sqliteStatement)
                    }
                }
                sqlite3_reset(sqliteStatement)
                guard result == SQLITE_DONE else {
                    throw DatabaseError(
                        resultCode: ResultCode(rawValue: sqlite3_extended_errcode(db.sqliteConnection)),
                        message: db.lastErrorMessage)
                }
            }
        }
    }

    func assignments(_ chunk: [LedgerRow.Assignment]) throws {
        try insert(
            "assignments",
            """
            INSERT INTO assignments (id, batch_id, seq, campaign, offer, environment, recipient, shared, channel,
                assigned_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, chunk
        ) {
            [
                $0.id, $0.batchId, $0.seq, $0.campaign, $0.offer, $0.environment.rawValue, $0.recipient,
                $0.shared ? 1 : 0, $0.channel.rawValue, $0.assignedAt.sqliteText,
            ]
        }
    }

    func connectResources(_ chunk: [LedgerRow.ConnectResource]) throws {
        try insert(
            "App Store Connect resources",
            """
            INSERT INTO connect_resources (id, campaign, offer, kind, key, request_id, resource_type, state, asc_id,
                body_digest, error, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, chunk
        ) {
            [
                $0.id, $0.campaign, $0.offer, $0.kind.rawValue, $0.key, $0.requestId, $0.resourceType,
                $0.state.rawValue, $0.ascId, $0.bodyDigest, $0.error, $0.updatedAt.sqliteText,
            ]
        }
    }

    /// Nothing to do: SQLite gives a new row the largest id plus one.
    func finish() throws {}

    func recordedRows() throws -> LedgerRow.Counts {
        try translating("counts") {
            var counts = LedgerRow.Counts()
            func count(_ table: String) throws -> Int {
                Int(
                    try SQLiteLedger.fetchInteger(db, path: path, table, sql: "SELECT COUNT(*) FROM \(table)") ?? 0)
            }
            counts.apps = try count("apps")
            counts.campaigns = try count("campaigns")
            counts.offers = try count("offers")
            counts.batches = try StoredBatch.fetchAll(db, path: path).count
            counts.assignments = try count("assignments")
            counts.connectResources = try count("connect_resources")
            let rows = try Row.fetchCursor(db, sql: "SELECT batch_id, COUNT(*) FROM codes GROUP BY batch_id")
            while let row = try rows.next() {
                guard case .int64(let batch) = (row[0] as DatabaseValue).storage,
                    case .int64(let codes) = (row[1] as DatabaseValue).storage
                else { throw LedgerError.corrupt(path: path, reason: "a value in codes.batch_id is not a number") }
                counts.codesPerBatch[batch] = Int(codes)
            }
            return counts
        }
    }

    /// Inserts `rows` with one prepared statement.
    private func insert<Row>(
        _ table: String, _ sql: String, _ rows: [Row], _ arguments: (Row) -> [(any DatabaseValueConvertible)?]
    ) throws {
        try translating(table) {
            let statement = try db.cachedStatement(sql: sql)
            for row in rows { try statement.execute(arguments: StatementArguments(arguments(row))) }
        }
    }

    @discardableResult
    private func translating<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw SQLiteLedger.translate(error, path: path, operation: "write the copied \(what)")
        }
    }

    /// Binds UTF-8 text without a copy (a `nil` destructor is `SQLITE_STATIC`): the caller steps
    /// while the bytes are borrowed.
    private static func bind(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32, _ statement: OpaquePointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            sqlite3_bind_text(statement, index, "", 0, nil)
            return
        }
        let pointer = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
        sqlite3_bind_text(statement, index, pointer, Int32(bytes.count), nil)
    }
}
