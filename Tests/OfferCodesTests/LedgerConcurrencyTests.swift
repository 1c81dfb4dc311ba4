import Foundation
import GRDB
import InteropSupport
import Testing

@testable import LedgerTestSupport
@testable import OfferCodes
@testable import OfferLedger

/// Several ledgers (connections) on one ledger at the same time, as separate processes would use it:
/// SQLite's file locks and PostgreSQL's advisory locks work the same between connections of one process.
@Suite("Code ledger: concurrent use of one ledger")
struct LedgerConcurrencyTests {
    typealias F = LedgerFixtures

    /// Runs `body` in `count` tasks at once, each with its index; their results, in index order.
    static func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) async -> T) async -> [T] {
        await withTaskGroup(of: (Int, T).self) { group in
            for index in 0..<count { group.addTask { (index, await body(index)) } }
            var results: [(Int, T)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// The checks of `recordBatch` and its writes are one transaction: batches that together go
    /// over the sandbox limit are never all recorded.
    @Test(arguments: LedgerBackend.allCases)
    func racingBatchesNeverGoOverTheQuarterLimit(backend: LedgerBackend) async throws {
        for round in 0..<5 {
            try await backend.withSharedPlace { place in
                try await place.withLedger { _ in }
                // Four batches of 3,000 sandbox codes: three fit in 10,000, the fourth does not.
                let results = await Self.concurrently(4) { index -> Result<BatchRecording, LedgerError> in
                    do {
                        let campaign = F.campaign("race-\(index)", offers: ["R\(index)"])
                        let batch = F.batch(
                            "race-\(index)", "R\(index)", kind: .oneTimeUse, codeCount: 3_000, environment: .sandbox)
                        return .success(
                            try await place.withLedger {
                                try await $0.recordBatch(batch, campaign: campaign, codes: .none)
                            })
                    } catch {
                        return .failure(
                            error as? LedgerError ?? .databaseFailure(operation: "race", reason: "\(error)"))
                    }
                }
                let recorded = results.filter { (try? $0.get()) == .recorded }.count
                let refused = results.compactMap { result -> LedgerError? in
                    guard case .failure(let error) = result, case .quarterLimitExceeded = error else { return nil }
                    return error
                }
                #expect(recorded == 3 && refused.count == 1, "round \(round): \(results)")
                for case .quarterLimitExceeded(_, _, let limit, let held) in refused {
                    #expect(limit == 10_000 && held == 9_000)
                }
                let summary = try await place.withLedger {
                    try await $0.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
                }
                #expect(summary.sandboxCodes == 9_000)
            }
        }
    }

    /// Opening a new ledger from several connections at once: all succeed, the tables exist once.
    @Test(arguments: LedgerBackend.allCases)
    func racingOpensOfANewLedgerAllSucceed(backend: LedgerBackend) async throws {
        for round in 0..<10 {
            try await backend.withSharedPlace { place in
                let results = await Self.concurrently(6) { index -> String? in
                    do {
                        try await place.withLedger { ledger in
                            let campaign = F.campaign("open-\(index)", offers: ["O"])
                            try await F.record(
                                ledger, F.batch("open-\(index)", "O", codeCount: 1), of: campaign, codes: ["C\(index)"])
                        }
                        return nil
                    } catch {
                        return "\(error)"
                    }
                }
                #expect(results.allSatisfy { $0 == nil }, "round \(round): \(results)")
                if case .sqliteFile(let path) = place {
                    let applied = try await DatabaseQueue(path: path).read { db in
                        try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
                    }
                    #expect(applied == SQLiteLedgerSchema.migrations.map(\.identifier))
                }
                try await place.withLedger { ledger throws in
                    for index in 0..<6 {
                        #expect(try await F.codes(ledger, campaign: "open-\(index)").map(\.code) == ["C\(index)"])
                    }
                }
            }
        }
    }

    /// Writers racing for the same codes: each code ends in exactly one batch. Given codes: one
    /// writer records them, the others are told they are taken (and record nothing). Generated
    /// codes from a small space, so that the writers draw the same ones: each batch holds its
    /// count of codes (the losers drew others).
    @Test(arguments: LedgerBackend.allCases)
    func racingWritersNeverIssueACodeTwice(backend: LedgerBackend) async throws {
        try await backend.withSharedPlace { place in
            let campaign = F.campaign("race", offers: ["R"])
            let shared = F.numberedCodes("SHARED", 1_500)
            let given = await Self.concurrently(4) { index -> String in
                do {
                    let batch = F.batch("race", "R", index: index, codeCount: shared.count)
                    let recording = try await place.withLedger {
                        try await $0.recordBatch(batch, campaign: campaign, codes: .given(shared))
                    }
                    return "\(recording)"
                } catch {
                    return "\(error)"
                }
            }
            #expect(given.filter { $0 == "\(BatchRecording.recorded)" }.count == 1, "\(given)")
            #expect(given.filter { $0.contains("codesTaken") && $0.contains("count: 1500") }.count == 3, "\(given)")

            // 4 × 500 codes of 4,096 possible ones.
            let spec = CodeGenerationSpec(count: 500, length: 6, alphabet: "ABCD")
            let generated = await Self.concurrently(4) { index -> String? in
                do {
                    let batch = F.batch("race", "R", index: 10 + index, codeCount: spec.count)
                    _ = try await place.withLedger {
                        try await $0.recordBatch(batch, campaign: campaign, codes: .generated(spec, random: .system))
                    }
                    return nil
                } catch {
                    return "\(error)"
                }
            }
            #expect(generated.allSatisfy { $0 == nil }, "\(generated)")
            let codes = try await place.withLedger { try await F.codes($0, campaign: "race").map(\.code) }
            #expect(codes.count == 1_500 + 2_000)
            #expect(Set(codes).count == codes.count)
            #expect(codes.filter { $0.hasPrefix("SHARED") }.count == 1_500)
        }
    }

    /// A writer waiting for the file's lock gets its turn while another writer commits and begins
    /// again back to back. (SQLite's own busy timeout looks at the lock only every 100 ms once it
    /// has waited a moment, and kept losing to writers that began again right after committing: of
    /// 8 processes claiming codes at once, one waited over 10 seconds and failed with "database
    /// is locked" while the others went on; found by `LedgerClaimProofTests`.)
    @Test func aWaitingWriterGetsItsTurnBetweenBackToBackWriters() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("ledger.sqlite").path
            let waiter = try await CodeLedger.sqlite(path: path)
            let busy = try await CodeLedger.sqlite(path: path)
            let state = LockedValue((done: false, writes: 0, running: true))
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Up to 40,000 writes that hold the lock for 0.5 ms each (20 s, past the 10 s a waiter
                // waits), each one right after the other, until the waiter has had its turns.
                group.addTask {
                    for _ in 0..<40_000 where !state.withLock({ $0.done }) {
                        _ = try? await busy.store.write(.ledger, "hold the lock") { _ in
                            try await Task.sleep(for: .microseconds(500))
                        }
                        state.withLock { $0.writes += 1 }
                    }
                    state.withLock { $0.running = false }
                }
                while state.withLock({ $0.writes }) < 10 { try await Task.sleep(for: .milliseconds(1)) }
                for turn in 0..<5 {
                    let before = state.withLock { $0.writes }
                    try await waiter.store.write(.ledger, "take a turn") { _ in }
                    // It got in between the other writer's writes, within a few hundred of them (some
                    // 100 on average) rather than after thousands, or after they ended.
                    let (passed, running) = state.withLock { ($0.writes - before, $0.running) }
                    #expect(running && passed <= 2_000, "turn \(turn): after \(passed) writes of the other")
                }
                state.withLock { $0.done = true }
                try await group.waitForAll()
            }
        }
    }

    // MARK: Files

    @Test func aNewLedgerAndItsLogAreOwnerOnly() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("ledger.sqlite").path
            let ledger = try await CodeLedger.sqlite(path: path)
            #expect(try Self.mode(path) == 0o600)
            var logModes: [Int?] = []
            let winter = F.campaign("winter", offers: ["W"])
            try await F.record(ledger, F.batch("winter", "W", codeCount: 2000), of: winter, codes: [])
            try await ledger.recordBatch(
                F.batch("winter", "W", index: 1, codeCount: 20_000), campaign: winter,
                codes: .given(F.numberedCodes("J", 20_000))
            ) { _ in
                logModes = [try? Self.mode(path + "-wal"), try? Self.mode(path + "-shm")]
            }
            #expect(
                logModes.first == 0o600 && logModes.last == 0o600, "SQLite gives its log and index the ledger's mode")
            let (journal, synchronous) = try await ledger.store.write(.ledger, "read the settings") { tx in
                try await (tx as! SQLiteTransaction).run { db in
                    (
                        try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                        try Int.fetchOne(db, sql: "PRAGMA synchronous")
                    )
                }
            }
            #expect(journal == "wal")
            #expect(synchronous == 2, "FULL: a commit is on disk before it returns")
        }
    }

    @Test func anExistingFileKeepsItsMode() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("shared.sqlite").path
            _ = try await CodeLedger.sqlite(path: path)
            try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
            _ = try await CodeLedger.sqlite(path: path)
            #expect(try Self.mode(path) == 0o640)
        }
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return ((attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1) & 0o777
    }
}
