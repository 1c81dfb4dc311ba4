import Foundation
import OfferCodes
import OfferLedger
import OfferLedgerPostgres
import Testing

@testable import LedgerTestSupport

/// A PostgreSQL ledger changed behind OfferKit's back (a hand edit, a restore of part of it) is
/// reported as damaged, never read silently; the SQLite counterparts are in LedgerDamageTests.
@Suite("PostgreSQL code ledger: damage")
struct PostgresLedgerDamageTests {
    typealias F = LedgerFixtures

    /// Runs `body` with a new ledger with one batch of three codes, and its location; nothing
    /// without a server.
    static func withRecorded(_ body: (CodeLedger, PostgresLocation) async throws -> Void) async throws {
        guard case .postgres(let location)? = LedgerBackend.postgres.newPlace() else { return }
        try await CodeLedger.withPostgres(location) { ledger in
            try await F.record(
                ledger, F.batch("winter", "W", codeCount: 3), of: F.campaign("winter", offers: ["W"]),
                codes: ["A1", "A2", "A3"])
            try await body(ledger, location)
        }
    }

    /// Opens the ledger at `location` (and does nothing with it).
    static func open(_ location: PostgresLocation) async throws {
        try await CodeLedger.withPostgres(location) { _ in }
    }

    static func expectCorrupt(_ words: String, _ body: () async throws -> Void) async {
        let error = await #expect(throws: LedgerError.self) { try await body() }
        guard case .corrupt(let path, let reason)? = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
        #expect(reason.contains(words), "\(reason)")
        #expect(path.hasPrefix("postgres://") && !path.contains(":\(UUID().uuidString)"))
        #expect(error?.localizedDescription.contains("looks damaged") == true)
    }

    @Test(arguments: [
        ("UPDATE batches SET code_count = code_count + 1", "does not match its checksum"),
        ("UPDATE batches SET quarter = 'soon'", "quarter"),
        ("UPDATE batches SET checksum = NULL", "checksum"),
    ])
    func aChangedBatchRowIsReported(sql: String, words: String) async throws {
        try await Self.withRecorded { ledger, _ in
            try await ledger.store.executeUnchecked(sql)
            await Self.expectCorrupt(words) { _ = try await ledger.batches(campaign: "winter") }
            await Self.expectCorrupt(words) {
                _ = try await ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
            }
        }
    }

    @Test(arguments: [
        ("UPDATE codes SET code_key = 'B2' WHERE code_key = 'A2'", "does not match its digest"),
        (
            "UPDATE codes SET code_key = 'B2', digest = \(CodeDigest.sql(batchId: "batch_id", seq: "seq", code: "'B2'")) "
                + "WHERE code_key = 'A2'",
            "differ from the ones recorded"
        ),
        ("DELETE FROM codes WHERE code_key = 'A3'", "has 2 codes"),
        (
            "INSERT INTO codes (batch_id, seq, app_id, code_key, digest) SELECT batch_id, 3, app_id, 'A4', "
                + "\(CodeDigest.sql(batchId: "batch_id", seq: "3", code: "'A4'")) FROM codes LIMIT 1",
            "has 4 codes"
        ),
    ])
    func changedCodesAreReported(sql: String, words: String) async throws {
        try await Self.withRecorded { ledger, _ in
            try await ledger.store.executeUnchecked(sql)
            await Self.expectCorrupt(words) { _ = try await F.codes(ledger, campaign: "winter") }
            await Self.expectCorrupt(words) { try await ledger.checkIntegrity(thorough: true) }
        }
    }

    @Test func schemaProblemsAreReportedOnOpening() async throws {
        try await Self.withRecorded { ledger, location in
            try await ledger.store.executeUnchecked(
                "INSERT INTO offerkit_migrations (identifier) VALUES ('offerkit-ledger-v99')")
            await #expect(
                throws: LedgerError.newerSchema(path: location.description, unknownMigrations: ["offerkit-ledger-v99"])
            ) {
                try await Self.open(location)
            }
            try await ledger.store.executeUnchecked(
                "DELETE FROM offerkit_migrations WHERE identifier = 'offerkit-ledger-v99'")
            try await ledger.store.executeUnchecked("ALTER TABLE codes ADD COLUMN note TEXT")
            await Self.expectCorrupt("codes") { try await Self.open(location) }
        }
    }

    /// Takes the ledger back to OfferKit's first PostgreSQL schema, as that version left it: no
    /// assignments, App Store Connect resources, digests of codes, code lanes or price points; one migration.
    static func makeFirstVersion(_ ledger: CodeLedger) async throws {
        for sql in [
            "DROP TABLE price_points", "DROP TABLE connect_resources", "DROP TABLE code_lanes",
            "DROP TABLE assignments",
            "DROP FUNCTION offerkit_claim_code", "DROP FUNCTION offerkit_check_code",
            "ALTER TABLE codes DROP COLUMN digest",
            "ALTER TABLE offers DROP COLUMN revision",
            "DELETE FROM offerkit_migrations WHERE identifier <> 'offerkit-ledger-postgres-v1'",
        ] {
            try await ledger.store.executeUnchecked(sql)
        }
    }

    @Test func aLedgerOfTheFirstVersionGetsItsAssignmentsTable() async throws {
        try await Self.withRecorded { ledger, location in
            try await Self.makeFirstVersion(ledger)
            try await CodeLedger.withPostgres(location) { reopened throws in
                #expect(try await F.codes(reopened, campaign: "winter").map(\.code) == ["A1", "A2", "A3"])
                let scope = AssignmentScope(campaign: "winter", offer: "W", today: CalendarDate("2027-01-20")!)
                #expect(try await reopened.claim(recipient: "a", scope: scope).code.code == "A1")
            }
            // A first-version ledger whose tables were changed is still reported.
            try await Self.makeFirstVersion(ledger)
            try await ledger.store.executeUnchecked("ALTER TABLE offers ADD COLUMN note TEXT")
            await Self.expectCorrupt("offers") { try await Self.open(location) }
        }
    }

    @Test func anotherProgramsSchemaIsNotALedger() async throws {
        try await Self.withRecorded { ledger, location in
            var other = location
            other.schema = location.schema + "_other"
            try await ledger.store.executeUnchecked("CREATE SCHEMA \(other.schema)")
            try await ledger.store.executeUnchecked("CREATE TABLE \(other.schema).customers (id INT)")
            await #expect(throws: LedgerError.notALedger(path: other.description)) { try await Self.open(other) }
        }
    }

    /// A claim prepares its statement once per connection (postgres-nio remembers a failed
    /// prepare for the connection's life): a claim that fails while the claim function is away
    /// (a schema being restored) must not leave a connection that fails every later claim.
    @Test func claimsWorkAgainOnceTheClaimFunctionIsBack() async throws {
        try await Self.withRecorded { ledger, _ in
            let scope = AssignmentScope(campaign: "winter", offer: "W", today: CalendarDate("2027-01-20")!)
            let signature = "(TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, BIGINT[], BOOLEAN)"
            try await ledger.store.executeUnchecked(
                "ALTER FUNCTION offerkit_claim_code\(signature) RENAME TO offerkit_claim_code_away")
            await #expect(throws: LedgerError.self) { _ = try await ledger.claim(recipient: "early", scope: scope) }
            try await ledger.store.executeUnchecked(
                "ALTER FUNCTION offerkit_claim_code_away\(signature) RENAME TO offerkit_claim_code")
            for recipient in ["first", "second", "third"] {
                #expect(try await ledger.claim(recipient: recipient, scope: scope).isNew)
            }
        }
    }
}
