import Foundation
import GRDB
import Testing

@testable import OfferLedger

/// The claim's own binding of values (`SQLiteRows.bind`, SQLite's `sqlite3_bind_*` rather than
/// GRDB's arguments): every value comes back from SQLite as it went in, of its own storage
/// class, and a wrong number of values or one OfferKit never writes is refused, not bound.
@Suite("SQLite rows: values bound and read back as they are")
struct SQLiteRowsTests {
    static let values: [LedgerValue] = [
        .null, .integer(0), .integer(.min), .integer(.max), .text(""), .text("user-1"),
        .text("Zoë 🎟️ ünïcode"), .text("a\u{0}b"), .blob([]), .blob([0, 255, 0, 7]),
    ]

    @Test func everyValueIsStoredAndReadBackAsItWas() throws {
        let queue = try DatabaseQueue()
        try queue.inDatabase { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, v)")
            for value in Self.values {
                try SQLiteRows.execute(db, "INSERT INTO t (v) VALUES (?)", binding: [value])
            }
            let back = try SQLiteRows.all(db, "SELECT v FROM t ORDER BY id").map { $0[0] }
            #expect(back == Self.values)
            let types = try String.fetchAll(db, sql: "SELECT typeof(v) FROM t ORDER BY id")
            #expect(
                types == ["null", "integer", "integer", "integer", "text", "text", "text", "text", "blob", "blob"])
            // Bound as parameters of a query too, and found by them.
            for value in Self.values where value != .null {
                let found = try SQLiteRows.one(db, "SELECT COUNT(*) FROM t WHERE v = ?", binding: [value])
                #expect(found == [.integer(1)], "\(value)")
            }
        }
    }

    @Test func aStatementIsReusedAfterAFailureAndBetweenGRDBAndTheRawBinding() throws {
        let queue = try DatabaseQueue()
        try queue.inDatabase { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (v TEXT UNIQUE)")
            let insert = "INSERT INTO t (v) VALUES (?)"
            try SQLiteRows.execute(db, insert, binding: [.text("a")])
            // The same value again fails (SQLite's constraint, no value quoted), and the cached
            // statement then runs again with another.
            let error = #expect(throws: DatabaseError.self) {
                try SQLiteRows.execute(db, insert, binding: [.text("a")])
            }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            try SQLiteRows.execute(db, insert, binding: [.text("b")])
            // GRDB runs the same cached statement with its own arguments, then the raw binding again.
            try db.cachedStatement(sql: insert).execute(arguments: ["c"])
            try SQLiteRows.execute(db, insert, binding: [.text("d")])
            try db.cachedStatement(sql: insert).execute(arguments: ["e"])
            #expect(try String.fetchAll(db, sql: "SELECT v FROM t ORDER BY v") == ["a", "b", "c", "d", "e"])
            #expect(
                try SQLiteRows.one(db, "SELECT ?, ?", binding: [.integer(1), .text("a")]) == [.integer(1), .text("a")])
            #expect(try SQLiteRows.one(db, "SELECT ?, ?", binding: [.null, .blob([1])]) == [.null, .blob([1])])
        }
    }

    @Test func aWrongCountOrAValueOfferKitNeverWritesIsRefused() throws {
        let queue = try DatabaseQueue()
        try queue.inDatabase { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (v)")
            #expect(throws: DatabaseError.self) {
                try SQLiteRows.execute(db, "INSERT INTO t (v) VALUES (?)", binding: [])
            }
            #expect(throws: DatabaseError.self) {
                try SQLiteRows.execute(db, "INSERT INTO t (v) VALUES (?)", binding: [.integer(1), .integer(2)])
            }
            #expect(throws: DatabaseError.self) {
                try SQLiteRows.execute(db, "INSERT INTO t (v) VALUES (?)", binding: [.other])
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 0)
        }
    }
}
