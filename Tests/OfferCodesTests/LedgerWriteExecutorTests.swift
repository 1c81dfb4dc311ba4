import Foundation
import OfferCodes
import Testing

@testable import LedgerTestSupport
@testable import OfferLedger

/// `CodeLedger.writeExecutor`: a task that claims codes one after another may run on it, and
/// everything the ledger does still works from there.
@Suite("Code ledger: claims on the write executor")
struct LedgerWriteExecutorTests {
    typealias F = LedgerFixtures

    static let scope = AssignmentScope(
        campaign: "loop", offer: "Half", environment: .production, today: CalendarDate("2027-02-01")!)

    /// An SQLite ledger, in memory or in a file, has one; PostgreSQL's claims run on the event
    /// loop of whichever connection they get, so it has none.
    @Test(arguments: LedgerBackend.allCases)
    func onlySQLiteHasAWriteExecutor(backend: LedgerBackend) async throws {
        try await backend.withSharedPlace { place in
            try await place.withLedger { ledger in
                #expect((ledger.writeExecutor != nil) == (backend == .sqlite))
            }
        }
        #expect(try await CodeLedger.inMemory().writeExecutor != nil)
    }

    /// A loop of claims on the executor, and claims from tasks off it at the same time: every
    /// recipient gets a code of their own, and a claim asked again gets the same code. From the
    /// executor the ledger also reads, records a batch and opens another ledger on the same file:
    /// nothing waits on the executor for the executor itself.
    @Test(.timeLimit(.minutes(1)))
    func claimsOnAndOffTheWriteExecutorEachGetACodeOfTheirOwn() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("ledger.sqlite").path
            try await CodeLedger.withSQLite(path: path) { ledger in
                let campaign = F.campaign("loop", offers: ["Half"])
                try await F.record(
                    ledger, F.batch("loop", "Half", codeCount: 200), of: campaign, codes: F.numberedCodes("L", 200))
                let executor = try #require(ledger.writeExecutor)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        try await withTaskExecutorPreference(executor) {
                            for index in 0..<100 {
                                let claim = try await ledger.claim(recipient: "on-\(index)", scope: Self.scope)
                                #expect(claim.isNew)
                            }
                            let again = try await ledger.claim(recipient: "on-0", scope: Self.scope)
                            #expect(!again.isNew)
                            // A read, a write transaction, and another ledger on the same file.
                            #expect(try await F.codes(ledger, campaign: "loop").count == 200)
                            let more = F.campaign("more", offers: ["More"])
                            try await F.record(
                                ledger, F.batch("more", "More", codeCount: 1), of: more, codes: ["MORE1"])
                            let read = try await CodeLedger.withSQLite(path: path, access: .readOnly) { other in
                                try await F.codes(other, campaign: "more").map(\.code)
                            }
                            #expect(read == ["MORE1"])
                        }
                    }
                    for task in 0..<4 {
                        group.addTask {
                            for index in 0..<25 {
                                _ = try await ledger.claim(recipient: "off-\(task)-\(index)", scope: Self.scope)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                let assignments = try await F.assignments(ledger, campaign: "loop")
                #expect(assignments.count == 200)
                #expect(Set(assignments.map(\.code.code)).count == 200)
                #expect(Set(assignments.map(\.recipient)).count == 200)
                #expect(Set(assignments.map(\.code.code)) == Set(F.numberedCodes("L", 200)))
            }
        }
    }
}
