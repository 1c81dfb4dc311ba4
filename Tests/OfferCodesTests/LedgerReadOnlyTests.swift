import Foundation
import GRDB
import Testing

@testable import LedgerTestSupport
@testable import OfferCodes
@testable import OfferLedger
@testable import OfferLedgerPostgres

/// ``LedgerAccess/readOnly``: a ledger opened to be read is never created, migrated or written;
/// a ledger location is checked however it was made; PostgreSQL's password file is read as libpq
/// reads it.
@Suite("Ledger: read-only opening, locations, password file")
struct LedgerReadOnlyTests {
    typealias F = LedgerFixtures

    /// A file's bytes and the names beside it.
    static func state(_ folder: URL, _ path: String) throws -> (Data?, [String]) {
        (
            FileManager.default.contents(atPath: path),
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        )
    }

    @Test("an older ledger opened read-only is reported with the command that migrates it, and left as it was")
    func olderLedgerIsNotMigrated() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("v1.sqlite").path
            try await DatabaseQueue(path: path).write { db in
                try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                try SQLiteLedgerSchema.migrations[0].apply(db, path)
                try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('offerkit-ledger-v1')")
            }
            let before = try Self.state(folder, path)
            let current = SQLiteLedgerSchema.migrations.count
            let error = await #expect(throws: LedgerError.olderSchema(path: path, applied: 1, current: current)) {
                try await CodeLedger.sqlite(path: path, access: .readOnly)
            }
            #expect(error?.localizedDescription.contains("offerkit codes ledger migrate --ledger") == true)
            #expect(try Self.state(folder, path) == before)
            // Opened to be written, it is brought up to date.
            _ = try await CodeLedger.sqlite(path: path)
            #expect(try await CodeLedger.sqlite(path: path, access: .readOnly).batches(campaign: "none").isEmpty)
        }
    }

    @Test("a ledger opened read-only reads, refuses writes and stays byte for byte as it was")
    func readOnlyLedgerWritesNothing() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("ledger.sqlite").path
            // Closed before each look at the file (withSQLite): a ledger merely let go closes its
            // connections a moment later, and the file may change until then.
            try await CodeLedger.withSQLite(path: path) { ledger in
                _ = try await F.record(
                    ledger, F.batch("winter", "W", codeCount: 2), of: F.campaign("winter", offers: ["W"]),
                    codes: ["A1", "B2"])
            }
            let before = try Self.state(folder, path)
            try await CodeLedger.withSQLite(path: path, access: .readOnly) { (ledger: CodeLedger) async throws in
                #expect(try await ledger.batches(campaign: "winter").count == 1)
                await #expect(throws: LedgerError.self) {
                    try await ledger.setOfferActive(false, offer: "W", campaign: "winter")
                }
                try await ledger.checkIntegrity(thorough: true)
            }
            #expect(try Self.state(folder, path) == before, "no -wal or -shm left, the file unchanged")
        }
    }

    @Test("read-only: a missing file is not created, and a FIFO is refused without being opened")
    func missingAndFIFO() async throws {
        try await F.withTemporaryFolder { folder in
            let missing = folder.appendingPathComponent("missing.sqlite").path
            await #expect(throws: LedgerError.cannotOpen(path: missing, reason: "no ledger file there")) {
                try await CodeLedger.sqlite(path: missing, access: .readOnly)
            }
            let fifo = folder.appendingPathComponent("fifo.sqlite").path
            #expect(mkfifo(fifo, 0o600) == 0)
            for access in [LedgerAccess.readOnly, .readWrite] {
                await #expect(
                    throws: LedgerError.cannotOpen(path: fifo, reason: "it is a FIFO (named pipe), not a regular file")
                ) { try await CodeLedger.sqlite(path: fifo, access: access) }
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(names == ["fifo.sqlite"])
        }
    }

    @Test("PostgreSQL, read-only: a new schema is not created")
    func postgresReadOnlyCreatesNothing() async throws {
        guard var location = PostgresTestServer.location(sourceLocation: #_sourceLocation) else { return }
        location.schema = "ro_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let current = PostgresLedgerSchema.migrations.count
        await #expect(throws: LedgerError.olderSchema(path: location.description, applied: 0, current: current)) {
            try await CodeLedger.withPostgres(location, access: .readOnly) { _ in }
        }
        // Still no schema: reading again says the same, and only a writer creates it.
        await #expect(throws: LedgerError.olderSchema(path: location.description, applied: 0, current: current)) {
            try await CodeLedger.withPostgres(location, access: .readOnly) { _ in }
        }
        try await CodeLedger.withPostgres(location) { _ in }
        #expect(
            try await CodeLedger.withPostgres(location, access: .readOnly) {
                try await $0.batches(campaign: "none").isEmpty
            })
    }

    @Test(
        "PostgresLocation's initializer refuses what the URL parser refuses",
        arguments: [
            ("offerkit; DROP TABLE codes", "schema"), ("Upper", "schema"), ("", "schema"),
            (String(repeating: "a", count: 64), "schema"),
        ])
    func initializerChecksTheSchema(schema: String, words: String) {
        let error = #expect(throws: LedgerLocationError.self) {
            try PostgresLocation(user: "u", password: "pw", host: "h", database: "db", schema: schema)
        }
        #expect(error?.localizedDescription.contains(words) == true, "\(String(describing: error))")
        #expect(error?.localizedDescription.contains("pw") == false)
    }

    @Test("PostgresLocation's initializer refuses an empty user, host or database and a bad port")
    func initializerChecksEveryMember() {
        #expect(throws: LedgerLocationError.self) {
            try PostgresLocation(user: "", password: nil, host: "h", database: "d")
        }
        #expect(throws: LedgerLocationError.self) {
            try PostgresLocation(user: "u", password: nil, host: "", database: "d")
        }
        #expect(throws: LedgerLocationError.self) {
            try PostgresLocation(user: "u", password: nil, host: "h", database: "")
        }
        #expect(throws: LedgerLocationError.self) {
            try PostgresLocation(user: "u", password: nil, host: "h", port: 70_000, database: "d")
        }
        #expect(throws: Never.self) { try PostgresLocation(user: "u", password: nil, host: "h", database: "d") }
    }

    @Test("a location changed after it was made is refused by the ledger before it connects")
    func ledgerChecksAChangedLocation() async throws {
        var location = try PostgresLocation(user: "u", password: nil, host: "127.0.0.1", port: 1, database: "d")
        location.schema = "x; DROP SCHEMA public CASCADE"
        await #expect(throws: LedgerLocationError.self) { try await CodeLedger.withPostgres(location) { _ in } }
    }

    // MARK: The password file

    /// Writes `text` as a password file with `mode`; returns its path.
    static func passwordFile(_ folder: URL, _ text: String, mode: Int = 0o600) throws -> String {
        let path = folder.appendingPathComponent("pgpass").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test("the password file: the first matching line, * for anything, \\: and \\\\ escaped, # comments")
    func passwordFileLines() async throws {
        try await F.withTemporaryFolder { folder in
            let location = try PostgresLocation(user: "team", password: nil, host: "db.example.com", database: "offers")
            let text = """
                # hostname:port:database:username:password
                other.example.com:5432:offers:team:wrong
                db.example.com:5433:offers:team:wrong-port
                db.example.com:*:offers:team:pa\\:ss\\\\word:ignored
                *:*:*:*:fallback
                """
            let path = try Self.passwordFile(folder, text)
            #expect(PostgresPasswordFile.lookUp(location, path: path) == .found("pa:ss\\word"))
            let other = try PostgresLocation(user: "x", password: nil, host: "h", database: "d")
            #expect(PostgresPasswordFile.lookUp(other, path: path) == .found("fallback"))
            // An escaped * is a literal host name, not "anything".
            let literal = try Self.passwordFile(folder, "\\*:*:*:*:star\n")
            #expect(PostgresPasswordFile.lookUp(other, path: literal) == .notFound)
            #expect(PostgresPasswordFile.lookUp(other, path: folder.appendingPathComponent("none").path) == .notFound)
        }
    }

    @Test("a password file group or others can read is ignored, as libpq ignores it, saying why")
    func looseFileIsIgnored() async throws {
        try await F.withTemporaryFolder { folder in
            let location = try PostgresLocation(user: "u", password: nil, host: "h", database: "d")
            let path = try Self.passwordFile(folder, "*:*:*:*:secret\n", mode: 0o644)
            guard case .ignored(let ignored, let reason) = PostgresPasswordFile.lookUp(location, path: path) else {
                Issue.record("read")
                return
            }
            #expect(ignored == path)
            #expect(reason.contains("group or world access (mode 644)") && reason.contains("chmod 600"))
            #expect(PostgresPasswordFile.path(environment: ["PGPASSFILE": path]) == path)
            #expect(PostgresPasswordFile.path(environment: ["HOME": "/home/me"]) == "/home/me/.pgpass")
        }
    }
}
