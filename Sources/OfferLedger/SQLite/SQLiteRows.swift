import GRDB

/// Rows of SQLite as the ledger reads them (``LedgerValue``): SQLite's storage classes as they
/// are, without GRDB's conversions (which read text as 0 where a number is expected).
enum SQLiteRows {
    /// The values of a row.
    static func values(_ row: Row) -> [LedgerValue] {
        (0..<row.count).map { index in
            switch (row[index] as DatabaseValue).storage {
            case .null: .null
            case .int64(let number): .integer(number)
            case .string(let text): .text(text)
            case .blob(let data): .blob(Array(data))
            case .double: .other
            }
        }
    }

    /// Every row of a statement (cached: the ledger runs few statements, many times).
    static func all(_ db: Database, _ sql: String, _ arguments: StatementArguments = []) throws -> [[LedgerValue]] {
        let cursor = try Row.fetchCursor(try db.cachedStatement(sql: sql), arguments: arguments)
        var rows: [[LedgerValue]] = []
        while let row = try cursor.next() { rows.append(values(row)) }
        return rows
    }

    /// The first row of a statement, or `nil`.
    static func one(_ db: Database, _ sql: String, _ arguments: StatementArguments = []) throws -> [LedgerValue]? {
        try Row.fetchOne(try db.cachedStatement(sql: sql), arguments: arguments).map(values)
    }

    /// The first column of the first row as a whole number (`COUNT(*)`, an id), or 0.
    static func count(_ db: Database, _ sql: String, _ arguments: StatementArguments = []) throws -> Int64 {
        guard let row = try one(db, sql, arguments), case .integer(let number)? = row.first else { return 0 }
        return number
    }
}
