import GRDB

extension SQLiteLedger {
    /// The first column of every row, as text.
    ///
    /// GRDB's `String.fetchAll` converts a number or a blob to text the way SQLite does; here a
    /// value of another type (damage, or a hand edit) is ``LedgerError/corrupt(path:reason:)``.
    /// `what` names the values in the error, such as `campaigns.name`.
    static func fetchTexts(
        _ db: Database, path: String, _ what: String, sql: String, arguments: StatementArguments = []
    ) throws -> [String] {
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        var texts: [String] = []
        while let row = try rows.next() {
            guard case .string(let text) = (row[0] as DatabaseValue).storage else {
                throw anotherType(path: path, what)
            }
            texts.append(text)
        }
        return texts
    }

    /// The first column of the first row, as an integer, or `nil` without a row.
    ///
    /// GRDB's `Int64.fetchOne` reads text as 0, the way SQLite does; here a value of another type
    /// is ``LedgerError/corrupt(path:reason:)``.
    static func fetchInteger(
        _ db: Database, path: String, _ what: String, sql: String, arguments: StatementArguments = []
    ) throws -> Int64? {
        guard let row = try Row.fetchOne(db, sql: sql, arguments: arguments) else { return nil }
        guard case .int64(let value) = (row[0] as DatabaseValue).storage else { throw anotherType(path: path, what) }
        return value
    }

    private static func anotherType(path: String, _ what: String) -> LedgerError {
        .corrupt(path: path, reason: "a value in \(what) has another type than OfferKit wrote, or is NULL")
    }
}
