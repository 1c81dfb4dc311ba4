import GRDB
import GRDBSQLite

/// Rows of SQLite as the ledger reads them (``LedgerValue``): SQLite's storage classes as they
/// are, without GRDB's conversions (which read text as 0 where a number is expected).
///
/// The statements are GRDB's (prepared once per connection, their arguments bound by GRDB), but
/// their rows are read straight from SQLite (`sqlite3_step`, `sqlite3_column_*`) rather than
/// through GRDB's `Row`, which builds a dictionary of its lowercased column names for every row
/// it reads: that was about a tenth of OfferKit's own CPU in a claim (perf, release build, one
/// process claiming codes one at a time), and every row of an export pays it too. Text is read
/// whole, by its length in bytes, so a NUL inside a damaged value is kept (and fails its digest)
/// rather than cutting the value short.
enum SQLiteRows {
    /// Every row of a statement (cached: the ledger runs few statements, many times).
    static func all(_ db: Database, _ sql: String, _ arguments: StatementArguments = []) throws -> [[LedgerValue]] {
        var rows: [[LedgerValue]] = []
        try step(db, sql, arguments) { row in
            rows.append(row)
            return true
        }
        return rows
    }

    /// The first row of a statement, or `nil`.
    static func one(_ db: Database, _ sql: String, _ arguments: StatementArguments = []) throws -> [LedgerValue]? {
        try one(db, try db.cachedStatement(sql: sql), arguments)
    }

    /// The same, with a statement at hand (one looked up once for a loop).
    static func one(_ db: Database, _ statement: Statement, _ arguments: StatementArguments) throws -> [LedgerValue]? {
        var first: [LedgerValue]?
        try step(db, statement, arguments) { row in
            first = row
            return false
        }
        return first
    }

    /// The first column of the first row as a whole number (`COUNT(*)`, an id), or 0.
    static func count(_ db: Database, _ sql: String, _ arguments: StatementArguments = []) throws -> Int64 {
        guard let row = try one(db, sql, arguments), case .integer(let number)? = row.first else { return 0 }
        return number
    }

    /// Runs the statement and gives `body` its rows, one at a time, until it returns `false` or
    /// the rows end; the statement is reset afterwards. A failure is GRDB's `DatabaseError`, with
    /// SQLite's extended result code and message (as GRDB's own reads throw).
    static func step(
        _ db: Database, _ sql: String, _ arguments: StatementArguments, _ body: ([LedgerValue]) throws -> Bool
    ) throws {
        try step(db, try db.cachedStatement(sql: sql), arguments, body)
    }

    /// The same, with a statement at hand (one looked up once for a loop).
    static func step(
        _ db: Database, _ statement: Statement, _ arguments: StatementArguments,
        _ body: ([LedgerValue]) throws -> Bool
    ) throws {
        try statement.setArguments(arguments)
        try stepBound(db, statement.sqliteStatement, body)
    }

    /// The first row of a statement, or `nil`, its parameters bound by SQLite's own calls (see
    /// ``bind(_:_:_:)``).
    static func one(_ db: Database, _ sql: String, binding values: [LedgerValue]) throws -> [LedgerValue]? {
        let handle = try db.cachedStatement(sql: sql).sqliteStatement
        try bind(db, handle, values)
        var first: [LedgerValue]?
        try stepBound(db, handle) { row in
            first = row
            return false
        }
        return first
    }

    /// Runs a statement that answers no rows (an `INSERT`, an `UPDATE`), its parameters bound by
    /// SQLite's own calls (see ``bind(_:_:_:)``). Not for `BEGIN`, `COMMIT` or `SAVEPOINT`, which
    /// GRDB runs itself so that it knows where its transactions are.
    static func execute(_ db: Database, _ sql: String, binding values: [LedgerValue]) throws {
        try execute(db, try db.cachedStatement(sql: sql), binding: values)
    }

    /// The same, with a statement at hand (one looked up once for a loop).
    static func execute(_ db: Database, _ statement: Statement, binding values: [LedgerValue]) throws {
        try bind(db, statement.sqliteStatement, values)
        try stepBound(db, statement.sqliteStatement) { _ in true }
    }

    /// Binds `values`, in order, to the parameters (`?`) of a statement of the connection, with
    /// `sqlite3_bind_*` (SQLite copies texts and blobs), after resetting it. GRDB's own runs of the
    /// same cached statement bind their arguments afresh (`setArguments`), so none runs with these.
    ///
    /// Why not GRDB's `StatementArguments`: a claim binds 20 values to 5 statements, and GRDB's
    /// arguments (an array of existentials, converted to its `DatabaseValue`s and validated
    /// against the statement, then bound) took about an eighth of OfferKit's user CPU in a claim
    /// (perf, release build, one process claiming codes one at a time). The claim binds its
    /// values here; the rest of the ledger keeps GRDB's arguments.
    static func bind(_ db: Database, _ handle: OpaquePointer, _ values: [LedgerValue]) throws {
        sqlite3_reset(handle)
        // Every parameter is bound below: no binding of an earlier run is left (no clear needed).
        guard sqlite3_bind_parameter_count(handle) == values.count else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "\(values.count) values for \(sqlite3_bind_parameter_count(handle)) parameters")
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null:
                code = sqlite3_bind_null(handle, index)
            case .integer(let number):
                code = sqlite3_bind_int64(handle, index, number)
            case .text(var text):
                // An empty text may have no address, which SQLite would bind as NULL.
                code = try text.withUTF8 { bytes in
                    sqlite3_bind_text(
                        handle, index, bytes.baseAddress ?? ("" as StaticString).utf8Start, try length(bytes.count),
                        transient)
                }
            case .blob(let bytes):
                code = try bytes.withUnsafeBytes { bytes in
                    bytes.isEmpty
                        ? sqlite3_bind_zeroblob(handle, index, 0)
                        : sqlite3_bind_blob(handle, index, bytes.baseAddress, try length(bytes.count), transient)
                }
            case .other:
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a value OfferKit does not write")
            }
            guard code == SQLITE_OK else { throw lastError(db) }
        }
    }

    /// A text's or blob's length as SQLite takes it, or `SQLITE_TOOBIG` past 2 GiB (SQLite's own
    /// limit is lower: it refuses such a value itself).
    private static func length(_ count: Int) throws -> Int32 {
        guard let length = Int32(exactly: count) else {
            throw DatabaseError(resultCode: .SQLITE_TOOBIG, message: "a value of \(count) bytes")
        }
        return length
    }

    /// SQLite's `SQLITE_TRANSIENT`: it copies the text or blob before the bind returns.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// Steps a statement whose parameters are bound, as `step` describes.
    private static func stepBound(_ db: Database, _ handle: OpaquePointer, _ body: ([LedgerValue]) throws -> Bool)
        throws
    {
        defer { sqlite3_reset(handle) }
        let columns = sqlite3_column_count(handle)
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_ROW:
                var row: [LedgerValue] = []
                row.reserveCapacity(Int(columns))
                for column in 0..<columns { row.append(try value(handle, column, db: db)) }
                guard try body(row) else { return }
            case SQLITE_DONE:
                return
            default:
                throw lastError(db)
            }
        }
    }

    /// SQLite's last failure on the connection, as GRDB reports it.
    private static func lastError(_ db: Database) -> DatabaseError {
        let connection = db.sqliteConnection
        return DatabaseError(
            resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
            message: sqlite3_errmsg(connection).map { String(cString: $0) })
    }

    /// The value of one column of the current row, as SQLite stores it. SQLite answers no
    /// pointer for a text or blob only when it runs out of memory (or for an empty blob).
    private static func value(_ handle: OpaquePointer, _ column: Int32, db: Database) throws -> LedgerValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL:
            return .null
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_TEXT:
            // The text first, then its length (SQLite's order for a value it may convert).
            guard let text = sqlite3_column_text(handle, column) else { throw lastError(db) }
            let count = Int(sqlite3_column_bytes(handle, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let blob = sqlite3_column_blob(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let blob else {
                if count == 0, sqlite3_errcode(db.sqliteConnection) != SQLITE_NOMEM { return .blob([]) }
                throw lastError(db)
            }
            return .blob(Array(UnsafeRawBufferPointer(start: blob, count: count)))
        default:
            return .other
        }
    }
}
