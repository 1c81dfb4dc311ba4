import GRDB
import GRDBSQLite

/// Inserts the codes of one batch with one prepared statement, inside the caller's transaction.
///
/// A batch can hold a million codes, so each insert binds and steps the statement with SQLite's C
/// functions: no argument arrays, no copy of the code (SQLite reads the Swift string's UTF-8 in
/// place). GRDB still owns the statement and the transaction around it.
package struct CodeInserter {
    private let db: Database
    private let statement: Statement
    private let campaign: String
    private let offer: String

    /// Prepares the insert of the codes of batch `batchId` (which has no codes yet) for app `appId`.
    init(_ db: Database, appId: Int64, batchId: Int64, campaign: String, offer: String) throws {
        self.db = db
        self.campaign = campaign
        self.offer = offer
        statement = try db.makeStatement(
            sql: """
                INSERT INTO codes (batch_id, seq, app_id, code_key, code) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (app_id, code_key) DO NOTHING
                """)
        sqlite3_bind_int64(statement.sqliteStatement, 1, batchId)
        sqlite3_bind_int64(statement.sqliteStatement, 3, appId)
    }

    /// Calls `insertCodes` with the insert function of ``CodeLedger/recordBatch(_:campaign:insertCodes:)``.
    ///
    /// Once an insert has failed, every later insert fails with the same error, and so does this
    /// method even if `insertCodes` swallowed the error: a batch with a failed insert is never
    /// committed.
    ///
    /// - Returns: the count and digest of the codes inserted, in order, for ``StoredBatch/seal(_:id:batch:storedCodes:codesDigest:)``.
    func run(_ insertCodes: (_ insert: (String) throws -> Bool) throws -> Void) throws -> BatchDigest {
        let sqliteStatement = statement.sqliteStatement
        defer {
            sqlite3_reset(sqliteStatement)
            sqlite3_clear_bindings(sqliteStatement)
        }
        var failure: (any Error)?
        var inserted: Int64 = 0
        var digest = BatchDigest()
        try insertCodes { code in
            if let failure { throw failure }
            guard !code.isEmpty else {
                let error = LedgerError.emptyCode(campaign: campaign, offer: offer)
                failure = error
                throw error
            }
            sqlite3_bind_int64(sqliteStatement, 2, inserted)
            let result = step(code)
            sqlite3_reset(sqliteStatement)
            guard result == SQLITE_DONE else {
                let error = DatabaseError(
                    resultCode: ResultCode(rawValue: sqlite3_extended_errcode(db.sqliteConnection)),
                    message: db.lastErrorMessage)
                failure = error
                throw error
            }
            guard sqlite3_changes(db.sqliteConnection) == 1 else { return false }
            inserted += 1
            digest.add(code)
            return true
        }
        if let failure { throw failure }
        return digest
    }

    /// Binds the code's key (and the code, when it differs from its key) and steps the statement.
    /// The text is bound without a copy, so the step happens while its storage is borrowed.
    private func step(_ code: String) -> Int32 {
        let sqliteStatement = statement.sqliteStatement
        var (key, keyIsCode) = Self.key(code)
        return key.withUTF8 { keyBytes in
            bind(keyBytes, at: 4)
            if keyIsCode {
                sqlite3_bind_null(sqliteStatement, 5)
                return sqlite3_step(sqliteStatement)
            }
            var code = code
            return code.withUTF8 { codeBytes in
                bind(codeBytes, at: 5)
                return sqlite3_step(sqliteStatement)
            }
        }
    }

    /// Binds non-empty UTF-8 text without a copy (a `nil` destructor is `SQLITE_STATIC`).
    private func bind(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) {
        let pointer = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
        sqlite3_bind_text(statement.sqliteStatement, index, pointer, Int32(bytes.count), nil)
    }

    /// The code as the ledger compares it: upper-cased. `isCode` tells that the key is `code`
    /// itself (no copy is made then), the case of every code OfferKit accepts.
    package static func key(_ code: String) -> (text: String, isCode: Bool) {
        for byte in code.utf8 where byte >= UInt8(ascii: "a") {
            if byte <= UInt8(ascii: "z") || byte >= 0x80 { return (code.uppercased(), false) }
        }
        return (code, true)
    }
}
