import Foundation
import GRDB
import OfferCodes
import Testing

@testable import LedgerTestSupport
@testable import OfferLedger

/// SQLite's one index of the assignments by code (schema v8, for v3's two): it refuses a second
/// recipient of a personal code and lets a shared code go to many, as the two did; a v7 ledger is
/// migrated to it when it is opened to be written.
@Suite("Code ledger: the assignments' index by code (SQLite)")
struct LedgerAssignmentIndexTests {
    typealias F = LedgerFixtures

    static let today = CalendarDate("2027-01-20")!
    static let personal = AssignmentScope(campaign: "winter", offer: "W", today: today)
    static let shared = AssignmentScope(campaign: "winter", offer: "S", today: today)

    /// An assignment of code `seq` of the offer's batch to `recipient`, written behind the ledger's back.
    static func insert(_ recipient: String, offer: String, seq: Int, shared: Bool, into ledger: CodeLedger)
        async throws
    {
        try await ledger.store.executeUnchecked(
            """
            INSERT INTO assignments (batch_id, seq, campaign, offer, environment, recipient, shared, channel, assigned_at)
            SELECT id, \(seq), 'winter', '\(offer)', 'SANDBOX', '\(recipient)', \(shared ? 1 : 0), 'claim',
                '2027-01-20T00:00:00.000Z'
            FROM batches WHERE campaign = 'winter' AND offer = '\(offer)'
            """)
    }

    @Test func aPersonalCodeGoesToOneRecipientAndASharedCodeToMany() async throws {
        try await LedgerBackend.sqlite.withNewLedger { ledger in
            try await F.recordWinterPersonalAndShared(ledger)
            let ann = try await ledger.claim(recipient: "ann", scope: Self.personal)
            #expect(ann.code.code == "W0")
            // Another recipient for the same personal code: the index refuses it.
            let refused = await #expect(throws: (any Error).self) {
                try await Self.insert("bob", offer: "W", seq: 0, shared: false, into: ledger)
            }
            #expect(
                refused?.localizedDescription.contains("UNIQUE constraint failed: index 'assignments_by_code'") == true,
                "\(String(describing: refused))")
            for recipient in ["ann", "bob"] {
                #expect(try await ledger.claim(recipient: recipient, scope: Self.shared).code.code == "SHARED")
            }
            try await Self.insert("cat", offer: "S", seq: 0, shared: true, into: ledger)
            let held = try await F.assignments(ledger, campaign: "winter")
            #expect(held.filter { $0.code.code == "SHARED" }.map(\.recipient).sorted() == ["ann", "bob", "cat"])
            #expect(held.filter { $0.code.code == "W0" }.map(\.recipient) == ["ann"])
        }
    }

    @Test func aVersion7LedgerIsMigratedWhenOpenedToBeWrittenAndKeepsItsAssignments() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("ledger.sqlite").path
            try await CodeLedger.withSQLite(path: path) { ledger in
                try await F.recordWinterPersonalAndShared(ledger)
                _ = try await ledger.claim(recipient: "ann", scope: Self.personal)
            }
            // Back to v7's indexes, as OfferKit's v3 migration wrote them.
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                try db.execute(
                    sql: """
                        DROP INDEX assignments_by_code;
                        CREATE UNIQUE INDEX assignments_personal ON assignments(batch_id, seq) WHERE shared = 0;
                        CREATE INDEX assignments_by_code ON assignments(batch_id, seq, shared);
                        DELETE FROM grdb_migrations WHERE identifier = 'offerkit-ledger-v8';
                        """)
            }
            try queue.close()
            await #expect(throws: LedgerError.olderSchema(path: path, applied: 7, current: 8)) {
                try await CodeLedger.sqlite(path: path, access: .readOnly)
            }
            #expect(try Self.indexes(path) == ["assignments_by_code", "assignments_personal"])
            try await CodeLedger.withSQLite(path: path) { (ledger: CodeLedger) async throws in
                #expect(try await ledger.claim(recipient: "ann", scope: Self.personal).code.code == "W0")
                #expect(try await ledger.claim(recipient: "bob", scope: Self.personal).code.code == "W1")
            }
            #expect(try Self.indexes(path) == ["assignments_by_code"])
            try await CodeLedger.withSQLite(path: path, access: .readOnly) { (ledger: CodeLedger) async throws in
                #expect(
                    try await F.assignments(ledger, campaign: "winter").map(\.recipient).sorted() == ["ann", "bob"])
            }
        }
    }

    /// The names of the indexes of `assignments` that OfferKit created (not SQLite's own).
    static func indexes(_ path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'assignments' AND sql IS NOT NULL
                    ORDER BY name
                    """)
        }
    }
}
