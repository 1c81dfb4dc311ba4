import Foundation
import GRDB
import InteropSupport
import Testing

@testable import OfferCodes

/// Several ledgers (connections) on one ledger at the same time, as separate processes would use it:
/// SQLite's file locks and PostgreSQL's advisory locks work the same between connections of one process.
@Suite("Code ledger: concurrent use of one ledger")
struct LedgerConcurrencyTests {
    typealias F = LedgerFixtures

    /// The checks of `recordBatch` and its writes are one transaction: batches that together go
    /// over the sandbox limit are never all recorded.
    @Test(arguments: LedgerBackend.allCases)
    func racingBatchesNeverGoOverTheQuarterLimit(backend: LedgerBackend) async throws {
        for round in 0..<5 {
            try await backend.withSharedStore { store in
                _ = try store.open()
                // Four batches of 3,000 sandbox codes: three fit in 10,000, the fourth does not.
                let results = await Concurrently.run(4) { index -> Result<Bool, LedgerError> in
                    Result {
                        let campaign = F.campaign("race-\(index)", offers: ["R\(index)"])
                        let batch = F.batch(
                            "race-\(index)", "R\(index)", kind: .oneTimeUse, codeCount: 3_000, environment: .sandbox)
                        return try store.open().recordBatch(batch, campaign: campaign) { _ in }
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
                let summary = try store.open().summary(
                    appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
                #expect(summary.sandboxCodes == 9_000)
            }
        }
    }

    /// Opening a new ledger from several connections at once: all succeed, the tables exist once.
    @Test(arguments: LedgerBackend.allCases)
    func racingOpensOfANewLedgerAllSucceed(backend: LedgerBackend) async throws {
        for round in 0..<10 {
            try await backend.withSharedStore { store in
                let results = await Concurrently.run(6) { index -> String? in
                    do {
                        let ledger = try store.open()
                        let campaign = F.campaign("open-\(index)", offers: ["O"])
                        try F.record(
                            ledger, F.batch("open-\(index)", "O", codeCount: 1), of: campaign, codes: ["C\(index)"])
                        return nil
                    } catch {
                        return "\(error)"
                    }
                }
                #expect(results.allSatisfy { $0 == nil }, "round \(round): \(results)")
                let ledger = try store.open()
                if let ledger = ledger as? SQLiteLedger {
                    let applied = try await ledger.database.read { db in
                        try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
                    }
                    #expect(
                        applied == [
                            "offerkit-ledger-v1", "offerkit-ledger-v2", "offerkit-ledger-v3", "offerkit-ledger-v4",
                        ])
                }
                for index in 0..<6 {
                    #expect(try F.codes(ledger, campaign: "open-\(index)").map(\.code) == ["C\(index)"])
                }
            }
        }
    }

    /// Writers racing for the same codes: each code ends in exactly one batch, and every batch
    /// holds its count of codes (the losers drew others).
    @Test(arguments: LedgerBackend.allCases)
    func racingWritersNeverIssueACodeTwice(backend: LedgerBackend) async throws {
        try await backend.withSharedStore { store in
            let campaign = F.campaign("race", offers: ["R"])
            let results = await Concurrently.run(4) { index -> String? in
                do {
                    // Every writer tries the same 1,500 codes first, then its own.
                    let shared = F.numberedCodes("SHARED", 1_500)
                    let own = F.numberedCodes("OWN\(index)-", 1_500)
                    let batch = F.batch("race", "R", index: index, codeCount: 1_500)
                    try store.open().recordBatch(batch, campaign: campaign) { insert in
                        var inserted = 0
                        for code in shared + own where inserted < 1_500 {
                            if try insert(code) { inserted += 1 }
                        }
                    }
                    return nil
                } catch {
                    return "\(error)"
                }
            }
            #expect(results.allSatisfy { $0 == nil }, "\(results)")
            let codes = try F.codes(store.open(), campaign: "race").map(\.code)
            #expect(codes.count == 6_000)
            #expect(Set(codes).count == 6_000)
            #expect(codes.filter { $0.hasPrefix("SHARED") }.count == 1_500)
        }
    }

    /// A writer waiting for the file's lock gets its turn while another writer commits and begins
    /// again back to back. (SQLite's own busy timeout looks at the lock only every 100 ms once it
    /// has waited a moment, and kept losing to writers that began again right after committing: of
    /// 8 processes claiming codes at once, one waited over 10 seconds and failed with "database
    /// is locked" while the others went on; found by `LedgerClaimProofTests`.)
    @Test func aWaitingWriterGetsItsTurnBetweenBackToBackWriters() async throws {
        try await F.withTemporaryFolderAwaiting { folder in
            let path = folder.appendingPathComponent("ledger.sqlite").path
            let waiter = try SQLiteLedger(path: path)
            let busy = try SQLiteLedger(path: path)
            let state = BackToBack()
            // Up to 40,000 writes of 0.5 ms each (20 s, past the 10 s a waiter waits), each one
            // right after the other, until the waiter has had its turns. Both writers block their
            // threads (holding, or waiting for, the file's lock): threads of their own.
            OwnedThread.start {
                for _ in 0..<40_000 where !state.waitersDone {
                    _ = try? busy.write("hold the lock") { _ in OwnedThread.pause(0.000_5) }
                    state.countWrite()
                }
                state.finishWriter()
            }
            let turns = try await OwnedThread.run { () throws -> [(passed: Int, writerRunning: Bool)] in
                defer {
                    state.waitersDone = true
                    state.waitForWriter()
                }
                while state.writes < 10 { OwnedThread.pause(0.001) }
                return try (0..<5).map { _ in
                    let before = state.writes
                    try waiter.write("take a turn") { _ in }
                    return (state.writes - before, state.writerRunning)
                }
            }
            // Each turn got in between the other writer's writes, within a few hundred of them (some 100
            // on average) rather than after thousands, or after they ended.
            for (turn, (passed, writerRunning)) in turns.enumerated() {
                #expect(writerRunning && passed <= 2_000, "turn \(turn): after \(passed) writes of the other")
            }
        }
    }

    /// The shared state of ``aWaitingWriterGetsItsTurnBetweenBackToBackWriters()`` (its threads are the
    /// test's own, so ``waitForWriter()`` may block).
    private final class BackToBack: @unchecked Sendable {
        private let lock = NSLock()
        private let ended = DispatchSemaphore(value: 0)
        private var done = false
        private var count = 0
        private var running = true

        var waitersDone: Bool {
            get { lock.withLock { done } }
            set { lock.withLock { done = newValue } }
        }
        var writes: Int { lock.withLock { count } }
        var writerRunning: Bool { lock.withLock { running } }
        func countWrite() { lock.withLock { count += 1 } }
        func finishWriter() {
            lock.withLock { running = false }
            ended.signal()
        }
        func waitForWriter() { ended.wait() }
    }

    // MARK: Files

    @Test func aNewLedgerAndItsLogAreOwnerOnly() throws {
        try F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("ledger.sqlite").path
            let ledger = try SQLiteLedger(path: path)
            #expect(try Self.mode(path) == 0o600)
            var logModes: [Int?] = []
            let winter = F.campaign("winter", offers: ["W"])
            try ledger.recordBatch(F.batch("winter", "W", codeCount: 2000), campaign: winter) { insert in
                for code in F.numberedCodes("J", 2000) { _ = try insert(code) }
                logModes = [try? Self.mode(path + "-wal"), try? Self.mode(path + "-shm")]
            }
            #expect(logModes == [0o600, 0o600], "SQLite gives its write-ahead log and index the ledger's mode")
            let journal = try ledger.database.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
            #expect(journal == "wal")
            let synchronous = try ledger.database.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
            #expect(synchronous == 2, "FULL: a commit is on disk before it returns")
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
