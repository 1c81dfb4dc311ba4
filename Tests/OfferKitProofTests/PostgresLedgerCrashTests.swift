import Foundation
import InteropSupport
import OfferCodes
import OfferLedger
import OfferLedgerPostgres
import Testing

@testable import LedgerTestSupport

/// A process killed with SIGKILL in the middle of recording a batch on PostgreSQL keeps nothing
/// of it: the server rolls the transaction back when the connection drops, and releases the
/// write lock. (The SQLite counterpart is `aKilledProcessKeepsNothingOfItsBatch`.)
@Suite("PostgreSQL code ledger: a killed process")
struct PostgresLedgerCrashTests {
    typealias F = LedgerFixtures

    /// Set (to the ledger's URL) in the child process only; the marker file's path goes in the other.
    static let childVariable = "OFFERKIT_LEDGER_PG_CRASH_CHILD"
    static let markerVariable = "OFFERKIT_LEDGER_PG_CRASH_MARKER"

    @Test(.enabled(if: F.canRerunTestBinary, "re-runs the test binary found at /proc/self/exe"))
    func aKilledProcessKeepsNothingOfItsBatch() async throws {
        guard let place = LedgerBackend.postgres.newPlace(), let childURL = place.locator else { return }
        try await F.withTemporaryFolder { folder in
            try await place.withLedger { ledger in
                let kept = F.numberedCodes("KEEP", 1000)
                try await F.record(
                    ledger, F.batch("autumn", "A", codeCount: kept.count), of: F.campaign("autumn", offers: ["A"]),
                    codes: kept)

                let marker = folder.appendingPathComponent("marker").path
                let process = try ChildProcess.testBinary(
                    running: "pgCrashChildRecordsUntilKilled",
                    environment: [Self.childVariable: childURL, Self.markerVariable: marker])
                _ = await process.poll(upTo: 120, every: 0.01) { FileManager.default.fileExists(atPath: marker) }
                let started = FileManager.default.fileExists(atPath: marker)
                await process.kill()
                guard started else {
                    Issue.record("The child process did not start recording. Its output:\n\(process.stdout)")
                    return
                }
                #expect(process.terminationReason == .uncaughtSignal)

                #expect(try await ledger.batches(campaign: F.crashCampaign.name).isEmpty)
                let crashCodes = (0..<F.crashMarkerAfter).map(F.crashCode)
                #expect(
                    try await ledger.issuedCodes(appAppleId: F.appAppleId, among: crashCodes, excludingCampaign: "")
                        .isEmpty)
                #expect(try await F.codes(ledger, campaign: "autumn").map(\.code) == kept)
                #expect(
                    try await ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
                        == LedgerSummary(activeOfferNames: ["A"], productionCodes: kept.count, sandboxCodes: 0))
                // The write lock was released with the connection: the batch can be recorded again.
                let again = Array(crashCodes.prefix(100))
                #expect(try await F.record(ledger, F.crashBatch, of: F.crashCampaign, codes: again) == .recorded)
            }
        }
    }

    /// The child of ``aKilledProcessKeepsNothingOfItsBatch()``; disabled in every other run.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func pgCrashChildRecordsUntilKilled() async throws {
        let url = try #require(ProcessInfo.processInfo.environment[Self.childVariable])
        let marker = try #require(ProcessInfo.processInfo.environment[Self.markerVariable])
        try await LedgerPlace(locator: url).withLedger { ledger in
            let codes = (0..<F.crashBatch.codeCount).map(F.crashCode)
            try await ledger.recordBatch(F.crashBatch, campaign: F.crashCampaign, codes: .given(codes)) { count in
                // Past two chunks of 10,000: the server holds uncommitted rows of the batch.
                if count >= F.crashMarkerAfter + 5_000 {
                    _ = FileManager.default.createFile(atPath: marker, contents: nil)
                }
                if count == codes.count { throw F.Interrupted() }
            }
        }
    }
}
