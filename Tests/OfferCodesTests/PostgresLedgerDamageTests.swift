import Foundation
import OfferCodes
import OfferLedgerPostgres
import Testing

/// A PostgreSQL ledger changed behind OfferKit's back (a hand edit, a restore of part of it) is
/// reported as damaged, never read silently; the SQLite counterparts are in LedgerDamageTests.
@Suite("PostgreSQL code ledger: damage")
struct PostgresLedgerDamageTests {
    typealias F = LedgerFixtures

    /// A ledger with one batch of three codes, and its location.
    static func recorded() throws -> (PostgresLedger, PostgresLocation)? {
        guard case .postgres(let location)? = LedgerBackend.postgres.newStore() else { return nil }
        let ledger = try PostgresLedger(location)
        try F.record(
            ledger, F.batch("winter", "W", codeCount: 3), of: F.campaign("winter", offers: ["W"]),
            codes: ["A1", "A2", "A3"])
        return (ledger, location)
    }

    static func expectCorrupt(_ words: String, _ body: () throws -> Void) {
        let error = #expect(throws: LedgerError.self) { try body() }
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
    func aChangedBatchRowIsReported(sql: String, words: String) throws {
        guard let (ledger, _) = try Self.recorded() else { return }
        try ledger.executeUnchecked(sql)
        Self.expectCorrupt(words) { _ = try ledger.batches(campaign: "winter") }
        Self.expectCorrupt(words) {
            _ = try ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
        }
    }

    @Test(arguments: [
        ("UPDATE codes SET code_key = 'B2' WHERE code_key = 'A2'", "differ from the ones recorded"),
        ("DELETE FROM codes WHERE code_key = 'A3'", "has 2 codes"),
        (
            "INSERT INTO codes (batch_id, seq, app_id, code_key) SELECT batch_id, 3, app_id, 'A4' FROM codes LIMIT 1",
            "has 4 codes"
        ),
    ])
    func changedCodesAreReported(sql: String, words: String) throws {
        guard let (ledger, _) = try Self.recorded() else { return }
        try ledger.executeUnchecked(sql)
        Self.expectCorrupt(words) { _ = try F.codes(ledger, campaign: "winter") }
        Self.expectCorrupt(words) { try ledger.checkIntegrity(thorough: true) }
    }

    @Test func schemaProblemsAreReportedOnOpening() throws {
        guard let (ledger, location) = try Self.recorded() else { return }
        try ledger.executeUnchecked("INSERT INTO offerkit_migrations (identifier) VALUES ('offerkit-ledger-v99')")
        #expect(throws: LedgerError.newerSchema(path: location.description, unknownMigrations: ["offerkit-ledger-v99"]))
        {
            try PostgresLedger(location)
        }
        try ledger.executeUnchecked("DELETE FROM offerkit_migrations WHERE identifier = 'offerkit-ledger-v99'")
        try ledger.executeUnchecked("ALTER TABLE codes ADD COLUMN note TEXT")
        Self.expectCorrupt("codes") { _ = try PostgresLedger(location) }
    }

    @Test func aLedgerOfTheFirstVersionGetsItsAssignmentsTable() throws {
        guard let (ledger, location) = try Self.recorded() else { return }
        // As OfferKit's first PostgreSQL ledger left it: no assignments or App Store Connect resources, one migration.
        try ledger.executeUnchecked("DROP TABLE connect_resources")
        try ledger.executeUnchecked("DROP TABLE assignments")
        try ledger.executeUnchecked("DROP FUNCTION offerkit_claim")
        try ledger.executeUnchecked(
            "DELETE FROM offerkit_migrations WHERE identifier IN ('offerkit-ledger-postgres-v2', 'offerkit-ledger-postgres-v3')"
        )
        let reopened = try PostgresLedger(location)
        #expect(try F.codes(reopened, campaign: "winter").map(\.code) == ["A1", "A2", "A3"])
        let scope = AssignmentScope(campaign: "winter", offer: "W", today: CalendarDate("2027-01-20")!)
        #expect(try reopened.claim(recipient: "a", scope: scope).code.code == "A1")
        // A first-version ledger whose tables were changed is still reported.
        try ledger.executeUnchecked("DROP TABLE connect_resources")
        try ledger.executeUnchecked("DROP TABLE assignments")
        try ledger.executeUnchecked("DROP FUNCTION offerkit_claim")
        try ledger.executeUnchecked(
            "DELETE FROM offerkit_migrations WHERE identifier IN ('offerkit-ledger-postgres-v2', 'offerkit-ledger-postgres-v3')"
        )
        try ledger.executeUnchecked("ALTER TABLE offers ADD COLUMN note TEXT")
        Self.expectCorrupt("offers") { _ = try PostgresLedger(location) }
    }

    @Test func anotherProgramsSchemaIsNotALedger() throws {
        guard let (ledger, location) = try Self.recorded() else { return }
        var other = location
        other.schema = location.schema + "_other"
        try ledger.executeUnchecked("CREATE SCHEMA \(other.schema)")
        try ledger.executeUnchecked("CREATE TABLE \(other.schema).customers (id INT)")
        #expect(throws: LedgerError.notALedger(path: other.description)) { try PostgresLedger(other) }
    }
}
