import Foundation
import GRDB
import InteropSupport
import Testing

@testable import LedgerTestSupport
@testable import OfferCodes
@testable import OfferLedger

/// A damaged or hand-edited ledger is reported as ``LedgerError/corrupt(path:reason:)`` naming the
/// file: never fewer or other codes than were recorded, never a trap.
@Suite("SQLite code ledger: damage")
struct LedgerDamageTests {
    typealias F = LedgerFixtures
    typealias D = DamagedLedgerFixtures

    // MARK: Byte flips in a real file

    /// 200 single-byte flips over the whole file: each damaged copy either answers exactly what the
    /// undamaged one does, or throws `corrupt` naming the copy.
    @Test func everyByteFlipIsDetectedOrHarmless() async throws {
        try await F.withTemporaryFolder { folder in
            let original = folder.appendingPathComponent("sample.sqlite").path
            try await D.writeSample(at: original)
            let expected = try await D.snapshot(CodeLedger.sqlite(path: original))
            let size = try #require(FileManager.default.attributesOfItem(atPath: original)[.size] as? Int)
            var numbers = SplitMix64(seed: 20_270_115)
            // The header's fields first, then random offsets over the file.
            var offsets: [UInt64] = [0, 16, 18, 19, 20, 21, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 96, 100]
            while offsets.count < 200 { offsets.append(numbers.next() % UInt64(size)) }
            var detected = 0
            var harmless = 0
            for (run, offset) in offsets.enumerated() {
                let mask = UInt8(truncatingIfNeeded: numbers.next() % 255 + 1)
                let copy = folder.appendingPathComponent("damaged-\(run)/ledger.sqlite")
                try FileManager.default.createDirectory(
                    at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: original, toPath: copy.path)
                try D.flip(copy.path, at: offset, mask: mask)
                let flip = "byte \(offset) XOR 0x\(String(mask, radix: 16))"
                do {
                    let ledger = try await CodeLedger.sqlite(path: copy.path)
                    try await ledger.checkIntegrity(thorough: true)
                    let answers = try await D.snapshot(ledger)
                    #expect(answers == expected, "\(flip): the damaged ledger answered differently, without an error")
                    harmless += 1
                } catch let error as LedgerError {
                    guard case .corrupt(let path, _) = error, path == copy.path else {
                        Issue.record("\(flip): expected corrupt naming \(copy.path), got \(error)")
                        continue
                    }
                    detected += 1
                } catch {
                    Issue.record("\(flip): expected a LedgerError, got \(type(of: error)): \(error)")
                }
                try? FileManager.default.removeItem(at: copy.deletingLastPathComponent())
            }
            #expect(detected > 0 && harmless > 0, "detected \(detected), harmless \(harmless)")
        }
    }

    /// Flips in the places that matter most: the header, the schema, the batches and the codes.
    @Test(arguments: [
        "SQLite format 3", "CREATE TABLE codes", "offerkit-ledger-v2", "2027-Q1", "LAUNCH1000", "LAUNCH1299",
        "BULK29", "apple9x1",
    ])
    func flipsInTheSchemaBatchesAndCodesAreDetected(text: String) async throws {
        try await F.withTemporaryFolder { folder in
            let original = folder.appendingPathComponent("sample.sqlite").path
            try await D.writeSample(at: original)
            let expected = try await D.snapshot(CodeLedger.sqlite(path: original))
            for last in [false, true] {
                let offset = try #require(try D.offset(of: text, in: original, last: last)) + 2
                let copy = folder.appendingPathComponent("damaged-\(last).sqlite").path
                try? FileManager.default.removeItem(atPath: copy)
                try FileManager.default.copyItem(atPath: original, toPath: copy)
                try D.flip(copy, at: offset, mask: 0x01)
                do {
                    let ledger = try await CodeLedger.sqlite(path: copy)
                    try await ledger.checkIntegrity(thorough: true)
                    let answers = try await D.snapshot(ledger)
                    Issue.record(
                        "a flip in \(text) at byte \(offset) went unnoticed (same answers: \(answers == expected))")
                } catch let error as LedgerError {
                    guard case .corrupt(let path, _) = error else {
                        Issue.record("expected corrupt, got \(error)")
                        continue
                    }
                    #expect(path == copy)
                    #expect(error.localizedDescription.contains("sqlite3 '\(copy)' 'PRAGMA integrity_check'"))
                }
            }
        }
    }

    /// A copy cut short (a full disk, an interrupted transfer) is `corrupt`, whatever its length.
    @Test func aTruncatedCopyIsCorrupt() async throws {
        try await F.withTemporaryFolder { folder in
            let original = folder.appendingPathComponent("sample.sqlite").path
            try await D.writeSample(at: original)
            let data = try Data(contentsOf: URL(fileURLWithPath: original))
            for length in [100, 4096, data.count / 2, data.count - 4096, data.count - 1] {
                let copy = folder.appendingPathComponent("truncated-\(length).sqlite").path
                try data.prefix(length).write(to: URL(fileURLWithPath: copy))
                await SQLiteLedgerTests.expectCorrupt(path: copy) {
                    let ledger = try await CodeLedger.sqlite(path: copy)
                    try await ledger.checkIntegrity(thorough: true)
                    return try await D.snapshot(ledger)
                }
            }
        }
    }

    // MARK: Hand edits

    @Test func aMissingCodeIsReportedNotSkipped() async throws {
        let ledger = try await CodeLedger.inMemory()
        try await F.record(
            ledger, F.batch("winter", "W", codeCount: 3), of: F.campaign("winter", offers: ["W"]),
            codes: ["A1", "A2", "A3"])
        try await ledger.store.executeUnchecked("DELETE FROM codes WHERE seq = 1")
        await SQLiteLedgerTests.expectCorrupt(
            path: ":memory:", mentioning: "are not numbered 0, 1, 2", "position 1 holds number 2"
        ) {
            try await F.codes(ledger, campaign: "winter")
        }
    }

    @Test func aChangedCodeIsReported() async throws {
        let ledger = try await CodeLedger.inMemory()
        try await F.record(
            ledger, F.batch("winter", "W", codeCount: 2), of: F.campaign("winter", offers: ["W"]), codes: ["A1", "A2"])
        try await ledger.store.executeUnchecked("UPDATE codes SET code_key = 'A9' WHERE seq = 1")
        await SQLiteLedgerTests.expectCorrupt(
            path: ":memory:", mentioning: "code number 2", "does not match its digest"
        ) {
            try await F.codes(ledger, campaign: "winter")
        }
        // With the row's digest made to fit (the digest is no secret), the batch's checksum still tells.
        let digest = CodeDigest.of(batchId: 1, seq: 1, code: "A9").map { String(format: "%02X", $0) }.joined()
        try await ledger.store.executeUnchecked("UPDATE codes SET digest = X'\(digest)' WHERE seq = 1")
        await SQLiteLedgerTests.expectCorrupt(path: ":memory:", mentioning: "differ from the ones recorded") {
            try await F.codes(ledger, campaign: "winter")
        }
    }

    @Test func aChangedBatchIsReportedByEveryReadThatUsesIt() async throws {
        let ledger = try await CodeLedger.inMemory()
        let winter = F.campaign("winter", offers: ["W"])
        try await F.record(ledger, F.batch("winter", "W", codeCount: 2), of: winter, codes: ["A1", "A2"])
        try await ledger.store.executeUnchecked("UPDATE batches SET redemption_limit = 3")
        await SQLiteLedgerTests.expectCorrupt(path: ":memory:", mentioning: "does not match its checksum") {
            try await ledger.batches(campaign: "winter")
        }
        await SQLiteLedgerTests.expectCorrupt(path: ":memory:", mentioning: "checksum") {
            try await ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
        }
        await SQLiteLedgerTests.expectCorrupt(path: ":memory:", mentioning: "checksum") {
            try await F.record(ledger, F.batch("winter", "W", index: 1, codeCount: 1), of: winter, codes: ["B1"])
        }
        // A campaign's batch moved to another quarter would leave its codes out of the limit.
        try await ledger.store.executeUnchecked("UPDATE batches SET redemption_limit = 1, quarter = '2027-Q3'")
        await SQLiteLedgerTests.expectCorrupt(path: ":memory:", mentioning: "checksum") {
            try await ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
        }
    }

    /// Values that would overflow or index out of bounds: `corrupt`, where they used to trap.
    @Test func numbersOutOfRangeAreCorruptNotATrap() async throws {
        let edits = [
            ("code_count = 9223372036854775807, redemption_limit = 2", "code_count"),
            ("idx = -1", "idx"), ("idx = 9223372036854775807", "idx"), ("redemption_limit = 0", "redemption_limit"),
            ("code_count = -5", "code_count"), ("stored_codes = -1", "stored_codes"),
            ("quarter = '2027-Q5'", "quarter"),
            ("code_count = 1.5", "code_count"), ("idx = 'x'", "idx"), ("checksum = NULL", "checksum"),
        ]
        for (edit, column) in edits {
            let ledger = try await CodeLedger.inMemory()
            try await F.record(
                ledger, F.batch("winter", "W", codeCount: 1), of: F.campaign("winter", offers: ["W"]), codes: ["A"])
            try await ledger.store.executeUnchecked("PRAGMA ignore_check_constraints = ON; UPDATE batches SET \(edit)")
            await SQLiteLedgerTests.expectCorrupt(path: ":memory:", mentioning: column) {
                try await ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
            }
            await SQLiteLedgerTests.expectCorrupt(path: ":memory:", mentioning: column) {
                try await ledger.batches(campaign: "winter")
            }
        }
    }

    /// A value of another type where a row id or a switch is read is `corrupt`: GRDB would have
    /// read the text as 0 (and trapped on it in a typed row subscript).
    @Test func aValueOfAnotherTypeIsCorrupt() async throws {
        let ledger = try await CodeLedger.inMemory()
        let winter = F.campaign("winter", offers: ["W"])
        try await F.record(ledger, F.batch("winter", "W", kind: .oneTimeUse, codeCount: 2), of: winter, codes: [])
        try await ledger.store.executeUnchecked(
            "PRAGMA foreign_keys = OFF; UPDATE campaigns SET app_id = 'one'; PRAGMA foreign_keys = ON")
        await SQLiteLedgerTests.expectCorrupt(path: ":memory:", mentioning: "campaign \"winter\": the column app_id") {
            try await ledger.attachCodes(toOneTimeUseBatch: 0, offer: "W", campaign: "winter", codes: ["APPLE1"])
        }
        await SQLiteLedgerTests.expectCorrupt(path: ":memory:", mentioning: "the column app_id") {
            try await F.record(ledger, F.batch("winter", "W", codeCount: 1), of: winter, codes: ["A1"])
        }
        try await ledger.store.executeUnchecked(
            "PRAGMA ignore_check_constraints = ON; UPDATE offers SET active = 'yes'")
        await SQLiteLedgerTests.expectCorrupt(path: ":memory:", mentioning: "the column active") {
            try await ledger.setOfferActive(true, offer: "W", campaign: "winter")
        }
    }

    @Test func aDamagedFileIsNamedInTheMessageWithHowToCheckIt() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("it's a ledger.sqlite").path
            try await D.writeSample(at: path)
            try D.flip(path, at: 0, mask: 0x20)
            let error = await #expect(throws: LedgerError.self) { try await CodeLedger.sqlite(path: path) }
            let message = error?.localizedDescription ?? ""
            #expect(message.contains("The code ledger at \(path) looks damaged"))
            #expect(
                message.contains(#"sqlite3 'it'\''s"#) || message.contains(#"'\''s a ledger.sqlite'"#), "\(message)")
            #expect(message.contains("restore it from a backup"))
        }
    }

    // MARK: Files of earlier versions

    /// A ledger written by the first schema (no digests) is brought up to date and reads back whole.
    @Test func aVersion1LedgerGetsItsDigests() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("v1.sqlite").path
            try await DatabaseQueue(path: path).write { db in
                try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                try SQLiteLedgerSchema.migrations[0].apply(db, path)
                try db.execute(
                    sql: """
                        INSERT INTO grdb_migrations VALUES ('offerkit-ledger-v1');
                        INSERT INTO apps VALUES (1, '1234567890');
                        INSERT INTO campaigns VALUES ('winter', 1, 'com.example.offerkit.demo', '2027-01-15T00:00:00.000Z');
                        INSERT INTO offers VALUES ('winter', 'W', 'CONSUMABLE', '6450000009', 'com.example.gems', 1);
                        INSERT INTO batches VALUES (1, 'winter', 'W', 'custom', 0, '2027-Q1', 2, 2, NULL, 'PRODUCTION',
                            '2027-01-15T00:00:00.000Z');
                        INSERT INTO codes VALUES (1, 0, 1, 'WIN1', NULL), (1, 1, 1, 'WIN2', 'win2');
                        """)
            }
            let ledger = try await CodeLedger.sqlite(path: path)
            #expect(
                try await ledger.batches(campaign: "winter") == [
                    F.batch("winter", "W", redemptionLimit: 2, codeCount: 2, expirationDate: nil)
                ])
            #expect(try await F.codes(ledger, campaign: "winter").map(\.code) == ["WIN1", "win2"])
            let applied = try await DatabaseQueue(path: path).read { db in
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
            }
            #expect(applied == SQLiteLedgerSchema.migrations.map(\.identifier).sorted())
            // The migrated ledger hands out its codes (the shared code to many).
            let scope = AssignmentScope(campaign: "winter", offer: "W", today: CalendarDate("2027-01-20")!)
            #expect(try await ledger.claim(recipient: "a", scope: scope).code.code == "WIN1")
            #expect(try await ledger.claim(recipient: "b", scope: scope).code.code == "WIN1")
            #expect(try await ledger.claim(recipient: "c", scope: scope).code.code == "win2")
        }
    }

    @Test func aSchemaThatDiffersFromOfferKitsIsCorrupt() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("ledger.sqlite").path
            _ = try await CodeLedger.sqlite(path: path)
            try await DatabaseQueue(path: path).write { db in try db.execute(sql: "DROP INDEX campaigns_by_app") }
            await SQLiteLedgerTests.expectCorrupt(path: path, mentioning: "campaigns_by_app") {
                try await CodeLedger.sqlite(path: path)
            }
        }
    }
}
