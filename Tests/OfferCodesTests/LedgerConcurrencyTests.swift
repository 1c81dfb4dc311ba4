import Foundation
import GRDB
import InteropSupport
import Testing

@testable import OfferCodes

/// Several ledgers (connections) on one file at the same time, as separate processes would use it:
/// SQLite's file locks work the same between connections of one process.
@Suite("SQLite code ledger: concurrent use of one file")
struct LedgerConcurrencyTests {
    typealias F = LedgerFixtures

    /// The checks of `recordBatch` and its writes are one transaction: batches that together go
    /// over the sandbox limit are never all recorded.
    @Test func racingBatchesNeverGoOverTheQuarterLimit() throws {
        for round in 0..<5 {
            try F.withTemporaryFolder { folder in
                let path = folder.appendingPathComponent("ledger.sqlite").path
                _ = try SQLiteLedger(path: path)
                // Four batches of 3,000 sandbox codes: three fit in 10,000, the fourth does not.
                let results = Concurrently.run(4) { index -> Result<Bool, LedgerError> in
                    Result {
                        let campaign = F.campaign("race-\(index)", offers: ["R\(index)"])
                        let batch = F.batch(
                            "race-\(index)", "R\(index)", kind: .oneTimeUse, codeCount: 3_000, environment: .sandbox)
                        return try SQLiteLedger(path: path).recordBatch(batch, campaign: campaign) { _ in }
                    }.mapError { $0 as? LedgerError ?? .databaseFailure(operation: "race", reason: "\($0)") }
                }
                let recorded = results.filter { (try? $0.get()) == true }.count
                let refused = results.compactMap { result -> LedgerError? in
                    guard case .failure(let error) = result, case .quarterLimitExceeded = error else { return nil }
                    return error
                }
                #expect(recorded == 3 && refused.count == 1, "round \(round): \(results)")
                for case .quarterLimitExceeded(_, _, let limit, let held) in refused {
                    #expect(limit == 10_000 && held == 9_000)
                }
                let summary = try SQLiteLedger(path: path).summary(
                    appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
                #expect(summary.sandboxCodes == 9_000)
            }
        }
    }

    /// Opening a new file from several connections at once: all succeed, the tables exist once.
    @Test func racingOpensOfANewFileAllSucceed() throws {
        for round in 0..<10 {
            try F.withTemporaryFolder { folder in
                let path = folder.appendingPathComponent("new.sqlite").path
                let results = Concurrently.run(6) { index -> String? in
                    do {
                        let ledger = try SQLiteLedger(path: path)
                        let campaign = F.campaign("open-\(index)", offers: ["O"])
                        try F.record(
                            ledger, F.batch("open-\(index)", "O", codeCount: 1), of: campaign, codes: ["C\(index)"])
                        return nil
                    } catch {
                        return "\(error)"
                    }
                }
                #expect(results.allSatisfy { $0 == nil }, "round \(round): \(results)")
                let ledger = try SQLiteLedger(path: path)
                let applied = try ledger.database.read { db in
                    try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
                }
                #expect(applied == ["offerkit-ledger-v1", "offerkit-ledger-v2"])
                for index in 0..<6 {
                    #expect(try F.codes(ledger, campaign: "open-\(index)").map(\.code) == ["C\(index)"])
                }
            }
        }
    }

    // MARK: Files

    @Test func aNewLedgerAndItsJournalAreOwnerOnly() throws {
        try F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("ledger.sqlite").path
            let ledger = try SQLiteLedger(path: path)
            #expect(try Self.mode(path) == 0o600)
            var journalMode: Int?
            let winter = F.campaign("winter", offers: ["W"])
            try ledger.recordBatch(F.batch("winter", "W", codeCount: 2000), campaign: winter) { insert in
                for code in F.numberedCodes("J", 2000) { _ = try insert(code) }
                journalMode = try? Self.mode(path + "-journal")
            }
            #expect(journalMode == 0o600, "the journal that SQLite creates during a write takes the ledger's mode")
        }
    }

    @Test func anExistingFileKeepsItsMode() throws {
        try F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("shared.sqlite").path
            _ = try SQLiteLedger(path: path)
            try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
            _ = try SQLiteLedger(path: path)
            #expect(try Self.mode(path) == 0o640)
        }
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return ((attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1) & 0o777
    }
}
