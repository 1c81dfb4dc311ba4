import Foundation
import GRDB
import GRDBSQLite

/// Inserts rows into an SQLite ledger inside the caller's transaction: codes with one prepared
/// statement bound and stepped with SQLite's C functions (no argument arrays, the strings read in
/// place: a batch can hold a million codes), and the rows of a copy as they are given (ids
/// included; `rowid` for campaigns and offers, so that the order is kept and SQLite numbers what
/// comes next after them).
enum SQLiteCodeRows {
    /// Inserts code rows (`seq, app_id, code_key, code, digest`) of a batch.
    static func insert(
        _ db: Database, batchId: Int64,
        _ codes: some Sequence<(seq: Int64, appId: Int64, key: String, code: String?, digest: [UInt8])>
    ) throws {
        let statement = try db.cachedStatement(
            sql: "INSERT INTO codes (batch_id, seq, app_id, code_key, code, digest) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
        let sqliteStatement = statement.sqliteStatement
        defer {
            sqlite3_reset(sqliteStatement)
            sqlite3_clear_bindings(sqliteStatement)
        }
        sqlite3_bind_int64(sqliteStatement, 1, batchId)
        for code in codes {
            sqlite3_bind_int64(sqliteStatement, 2, code.seq)
            sqlite3_bind_int64(sqliteStatement, 3, code.appId)
            var key = code.key
            let result = code.digest.withUnsafeBytes { digest in
                sqlite3_bind_blob(sqliteStatement, 6, digest.baseAddress, Int32(digest.count), nil)
                return key.withUTF8 { keyBytes in
                    bind(keyBytes, at: 4, sqliteStatement)
                    guard var text = code.code else {
                        sqlite3_bind_null(sqliteStatement, 5)
                        return sqlite3_step(sqliteStatement)
                    }
                    return text.withUTF8 { textBytes in
                        bind(textBytes, at: 5, sqliteStatement)
                        return sqlite3_step(sqliteStatement)
                    }
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

    /// Binds UTF-8 text without a copy (a `nil` destructor is `SQLITE_STATIC`): the caller steps
    /// while the bytes are borrowed.
    private static func bind(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32, _ statement: OpaquePointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            sqlite3_bind_text(statement, index, "", 0, nil)
            return
        }
        sqlite3_bind_text(
            statement, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
    }

    /// Inserts copied rows as they are given.
    static func load(_ rows: LedgerRows, db: Database) throws {
        switch rows {
        case .apps(let rows):
            try insert(db, "INSERT INTO apps (id, app_apple_id) VALUES (?, ?)", rows) { [$0.id, $0.appAppleId] }
        case .campaigns(let rows):
            try insert(
                db, "INSERT INTO campaigns (rowid, name, app_id, bundle_id, recorded_at) VALUES (?, ?, ?, ?, ?)", rows
            ) { [$0.order, $0.name, $0.appId, $0.bundleId, $0.recordedAt.sqliteText] }
        case .offers(let rows):
            try insert(
                db,
                """
                INSERT INTO offers (rowid, campaign, name, product_type, product_asc_id, product_id, active, revision)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, rows
            ) {
                [
                    $0.order, $0.campaign, $0.name, $0.productType, $0.productAscId, $0.productId, $0.active ? 1 : 0,
                    $0.revision,
                ]
            }
        case .batches(let rows):
            try insert(
                db,
                """
                INSERT INTO batches (id, campaign, offer, kind, idx, quarter, redemption_limit, code_count,
                    expiration_date, environment, recorded_at, stored_codes, codes_digest, checksum)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, rows
            ) { row in
                let batch = row.batch
                return [
                    row.id, batch.campaign, batch.offer, batch.kind.rawValue, batch.index, batch.quarter,
                    batch.redemptionLimit, batch.codeCount, batch.expirationDate?.description,
                    batch.environment.rawValue, row.recordedAt.sqliteText, row.storedCodes, Data(row.codesDigest),
                    Data(row.checksum),
                ]
            }
        case .codes(let chunk, let batch):
            try insert(db, batchId: batch.id, chunk.lazy.map { ($0.seq, $0.appId, $0.key, $0.code, $0.digest) })
        case .assignments(let chunk):
            try insert(
                db,
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
        case .connectResources(let chunk):
            try insert(
                db,
                """
                INSERT INTO connect_resources (id, campaign, offer, kind, key, request_id, resource_type, state, asc_id,
                    body_digest, error, updated_at, offer_kind)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, chunk
            ) {
                [
                    $0.id, $0.campaign, $0.offer, $0.kind.rawValue, $0.key, $0.requestId, $0.resourceType,
                    $0.state.rawValue, $0.ascId, $0.bodyDigest, $0.error, $0.updatedAt.sqliteText,
                    $0.offerKind.rawValue,
                ]
            }
        case .pricePoints(let chunk):
            try insert(
                db,
                """
                INSERT INTO price_points (id, campaign, product_type, product_id, territory, customer_price,
                    price_point, recorded_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, chunk
            ) {
                [
                    $0.id, $0.campaign, $0.price.query.product.type, $0.price.query.product.id,
                    $0.price.query.territory, $0.price.customerPrice, $0.price.pricePoint, $0.recordedAt.sqliteText,
                ]
            }
        }
    }

    /// Inserts `rows` with one prepared statement.
    private static func insert<Row>(
        _ db: Database, _ sql: String, _ rows: [Row], _ arguments: (Row) -> [(any DatabaseValueConvertible)?]
    ) throws {
        let statement = try db.cachedStatement(sql: sql)
        for row in rows { try statement.execute(arguments: StatementArguments(arguments(row))) }
    }
}
