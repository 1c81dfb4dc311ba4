import Foundation
import GRDB
import InteropSupport
import OfferCodes
import Testing

@testable import LedgerTestSupport
@testable import OfferLedger

@Suite("SQLite code ledger")
struct SQLiteLedgerTests {
    typealias F = LedgerFixtures

    // MARK: Closing

    /// `withSQLite` closes the ledger before it returns, also when its body throws: no `-wal` or
    /// `-shm` is left, and a byte copy of the file alone holds everything written.
    @Test func withSQLiteLeavesTheFileWholeWhenItReturns() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("closed.sqlite").path
            let codes = F.numberedCodes("CLOSED", 50)
            try await CodeLedger.withSQLite(path: path) { ledger in
                _ = try await F.record(
                    ledger, F.batch("autumn", "A", codeCount: codes.count), of: F.campaign("autumn", offers: ["A"]),
                    codes: codes)
            }
            struct Stop: Error {}
            await #expect(throws: Stop.self) {
                try await CodeLedger.withSQLite(path: path) { ledger in
                    try await ledger.setOfferActive(false, offer: "A", campaign: "autumn")
                    throw Stop()
                }
            }
            for suffix in ["-wal", "-shm"] {
                #expect(!FileManager.default.fileExists(atPath: path + suffix), "\(suffix) left beside the file")
            }
            let copy = folder.appendingPathComponent("copy.sqlite").path
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            try await CodeLedger.withSQLite(path: copy, access: .readOnly) { (ledger: CodeLedger) async throws in
                #expect(try await F.codes(ledger, campaign: "autumn").map(\.code) == codes)
                #expect(try await ledger.batches(campaign: "autumn").count == 1)
            }
        }
    }

    /// Opening a ledger a second time in one process leaves the locks of the first opening alone.
    /// POSIX releases every lock a process holds on a file when it closes any descriptor of that
    /// file, so nothing but SQLite may open and close the file while the ledger is open: a closed
    /// descriptor of ours would let another process that closes the file think it was the last,
    /// fold the write-ahead log into the file and remove it under the open ledger.
    @Test func openingALedgerAgainKeepsTheLocksOfTheFirstOpening() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("twice.sqlite").path
            try await CodeLedger.withSQLite(path: path) { (first: CodeLedger) async throws in
                _ = try await F.record(
                    first, F.batch("autumn", "A", codeCount: 5), of: F.campaign("autumn", offers: ["A"]),
                    codes: F.numberedCodes("TWICE", 5))
                #expect(FileManager.default.fileExists(atPath: path + "-wal"))
                try await CodeLedger.withSQLite(path: path, access: .readOnly) { (second: CodeLedger) async throws in
                    #expect(try await F.codes(second, campaign: "autumn").count == 5)
                }
                // Another process reads the file and closes it: were it the last, `-wal` would go.
                let script =
                    "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                    + "c.execute('SELECT count(*) FROM sqlite_master').fetchall(); c.close()"
                let other = try await ExternalProcess.run(InteropEnvironment.python, ["-c", script, path])
                #expect(other.status == 0, "\(other.stderr)")
                #expect(
                    FileManager.default.fileExists(atPath: path + "-wal"),
                    "another process removed -wal while the ledger was open")
                #expect(try await F.codes(first, campaign: "autumn").count == 5)
                _ = try await F.record(
                    first, F.batch("autumn", "A", index: 1, codeCount: 5), of: F.campaign("autumn", offers: ["A"]),
                    codes: F.numberedCodes("AGAIN", 5))
                #expect(try await F.codes(first, campaign: "autumn").count == 10)
            }
        }
    }

    // MARK: Recording and reading back

    @Test(arguments: LedgerBackend.allCases)
    func recordsBatchesAndStreamsTheirCodesInBatchThenInsertionOrder(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            if backend == .sqlite { #expect(ledger.name == ":memory:") }
            let campaign = F.campaign("spring-2027", offers: ["Half price", "Gems"])
            let gems = F.batch("spring-2027", "Gems", redemptionLimit: 100, codeCount: 2, expirationDate: nil)
            let half0 = F.batch("spring-2027", "Half price", codeCount: 3)
            let half1 = F.batch("spring-2027", "Half price", kind: .oneTimeUse, codeCount: 2, environment: .sandbox)
            #expect(try await F.record(ledger, gems, of: campaign, codes: ["GEMS1", "GEMS2"]) == .recorded)
            #expect(try await F.record(ledger, half0, of: campaign, codes: ["HALF3", "HALF1", "HALF2"]) == .recorded)
            #expect(try await F.record(ledger, half1, of: campaign, codes: ["OTU2", "OTU1"]) == .recorded)

            #expect(try await ledger.batches(campaign: "spring-2027") == [gems, half0, half1])
            #expect(try await ledger.batches(campaign: "autumn").isEmpty)
            let all = try await F.codes(ledger, campaign: "spring-2027")
            #expect(all.map(\.code) == ["GEMS1", "GEMS2", "HALF3", "HALF1", "HALF2", "OTU2", "OTU1"])
            #expect(
                all[0]
                    == IssuedCode(
                        code: "GEMS1", offer: "Gems", kind: .custom, batchIndex: 0, redemptionLimit: 100,
                        expirationDate: nil,
                        environment: .production))
            #expect(
                all[5]
                    == IssuedCode(
                        code: "OTU2", offer: "Half price", kind: .oneTimeUse, batchIndex: 0, redemptionLimit: 1,
                        expirationDate: CalendarDate("2027-05-31"), environment: .sandbox))
            let half = try await F.codes(ledger, campaign: "spring-2027", offer: "Half price")
            #expect(half.map(\.code) == ["HALF3", "HALF1", "HALF2", "OTU2", "OTU1"])
            #expect(try await F.codes(ledger, campaign: "spring-2027", offer: "Missing").isEmpty)
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func recordingABatchAgainChangesNothing(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            let campaign = F.campaign("spring-2027", offers: ["Gems"])
            let batch = F.batch("spring-2027", "Gems", codeCount: 2)
            #expect(try await F.record(ledger, batch, of: campaign, codes: ["GEMS1", "GEMS2"]) == .recorded)
            let again = try await ledger.recordBatch(batch, campaign: campaign, codes: .given(["GEMS3"]))
            #expect(again == .alreadyRecorded)
            #expect(try await ledger.batches(campaign: "spring-2027") == [batch])
            #expect(try await F.codes(ledger, campaign: "spring-2027").map(\.code) == ["GEMS1", "GEMS2"])
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func refusesACodeAlreadyIssuedForTheAppButNotForAnotherApp(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            let autumn = F.campaign("autumn", offers: ["A"])
            let spring = F.campaign("spring", offers: ["S"])
            let other = F.campaign("other-app", appAppleId: F.otherAppAppleId, offers: ["O"])
            try await F.record(ledger, F.batch("autumn", "A", codeCount: 1), of: autumn, codes: ["SPRING27"])

            // A code taken (in any case) refuses the whole batch, naming the code: nothing is recorded.
            let inSpring = try await F.record(
                ledger, F.batch("spring", "S", codeCount: 2), of: spring, codes: ["spring27", "SPRING28"])
            #expect(inSpring == .codesTaken(codes: ["spring27"], count: 1))
            #expect(try await ledger.batches(campaign: "spring").isEmpty)
            #expect(try await F.codes(ledger, campaign: "spring").isEmpty)
            #expect(
                try await F.record(ledger, F.batch("spring", "S", codeCount: 1), of: spring, codes: ["SPRING28"])
                    == .recorded)
            #expect(try await F.codes(ledger, campaign: "spring").map(\.code) == ["SPRING28"])

            let inOther = try await F.record(
                ledger, F.batch("other-app", "O", codeCount: 1), of: other, codes: ["SPRING27"])
            #expect(inOther == .recorded)
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func refusesDuplicatesWithinABatchCaseInsensitively(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            let campaign = F.campaign("spring", offers: ["S"])
            let result = try await F.record(
                ledger, F.batch("spring", "S", codeCount: 3), of: campaign, codes: ["X1", "X1", "x1", "X2", "x3"])
            #expect(result == .codesTaken(codes: ["X1", "x1"], count: 2))
            #expect(try await ledger.batches(campaign: "spring").isEmpty)
            #expect(
                try await F.record(
                    ledger, F.batch("spring", "S", codeCount: 3), of: campaign, codes: ["X1", "X2", "x3"])
                    == .recorded)
            // Stored as issued, compared upper-cased.
            #expect(try await F.codes(ledger, campaign: "spring").map(\.code) == ["X1", "X2", "x3"])
            #expect(
                try await ledger.issuedCodes(appAppleId: F.appAppleId, among: ["X3"], excludingCampaign: "") == ["X3"])
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func findsIssuedCodesCaseInsensitivelyLeavingOutOneCampaign(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            let winter = F.campaign("winter", offers: ["W"])
            try await F.record(
                ledger, F.batch("winter", "W", codeCount: 2), of: winter, codes: ["SPRING27", "abc12345"])
            let among = ["spring27", "ABC12345", "NEW00001"]
            #expect(
                try await ledger.issuedCodes(appAppleId: F.appAppleId, among: among, excludingCampaign: "spring")
                    == ["SPRING27", "ABC12345"])
            #expect(
                try await ledger.issuedCodes(appAppleId: F.appAppleId, among: among, excludingCampaign: "winter")
                    .isEmpty)
            #expect(
                try await ledger.issuedCodes(appAppleId: F.otherAppAppleId, among: among, excludingCampaign: "").isEmpty
            )
            #expect(try await ledger.issuedCodes(appAppleId: F.appAppleId, among: [], excludingCampaign: "").isEmpty)
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func summarizesOtherCampaignsOfTheAppForTheQuarter(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            let winter = F.campaign("winter", offers: ["W1", "W2"])
            let spring = F.campaign("spring", offers: ["S1"])
            let other = F.campaign("other-app", appAppleId: F.otherAppAppleId, offers: ["O1"])
            try await F.record(
                ledger, F.batch("winter", "W1", redemptionLimit: 10, codeCount: 3), of: winter, codes: ["A", "B", "C"])
            try await F.record(
                ledger, F.batch("winter", "W1", kind: .oneTimeUse, codeCount: 500, environment: .sandbox), of: winter,
                codes: [])
            try await F.record(
                ledger, F.batch("winter", "W2", kind: .oneTimeUse, quarter: "2027-Q2", codeCount: 100), of: winter,
                codes: [])
            try await F.record(
                ledger, F.batch("spring", "S1", redemptionLimit: 5, codeCount: 2), of: spring, codes: ["D", "E"])
            try await F.record(
                ledger, F.batch("other-app", "O1", redemptionLimit: 1000, codeCount: 1), of: other, codes: ["F"])

            let withoutSpring = try await ledger.summary(
                appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "spring")
            #expect(
                withoutSpring == LedgerSummary(activeOfferNames: ["W1", "W2"], productionCodes: 30, sandboxCodes: 500))
            let everything = try await ledger.summary(
                appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
            #expect(
                everything
                    == LedgerSummary(activeOfferNames: ["W1", "W2", "S1"], productionCodes: 40, sandboxCodes: 500))
            let nextQuarter = try await ledger.summary(
                appAppleId: F.appAppleId, quarter: "2027-Q2", excludingCampaign: "spring")
            #expect(
                nextQuarter == LedgerSummary(activeOfferNames: ["W1", "W2"], productionCodes: 100, sandboxCodes: 0))
            #expect(try await ledger.summary(appAppleId: "5555", quarter: F.quarter, excludingCampaign: "") == .empty)

            try await ledger.setOfferActive(false, offer: "W1", campaign: "winter")
            let afterSwitch = try await ledger.summary(
                appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
            #expect(
                afterSwitch == LedgerSummary(activeOfferNames: ["W2", "S1"], productionCodes: 40, sandboxCodes: 500))
            try await ledger.setOfferActive(true, offer: "W1", campaign: "winter")
            try await ledger.setOfferActive(true, offer: "W1", campaign: "winter")
            #expect(
                try await ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
                    .activeOfferNames
                    == ["W1", "W2", "S1"])
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func keepsTheActiveSwitchWhenTheCampaignIsRecordedAgain(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            let winter = F.campaign("winter", offers: ["W1", "W2"])
            try await F.record(ledger, F.batch("winter", "W1", codeCount: 1), of: winter, codes: ["A"])
            try await ledger.setOfferActive(false, offer: "W2", campaign: "winter")
            try await F.record(ledger, F.batch("winter", "W2", codeCount: 1), of: winter, codes: ["B"])
            #expect(
                try await ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
                    .activeOfferNames
                    == ["W1"])
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func refusesToSwitchAnUnknownOffer(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            await #expect(throws: LedgerError.unknownOffer(offer: "W1", campaign: "winter")) {
                try await ledger.setOfferActive(false, offer: "W1", campaign: "winter")
            }
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func attachesAppleCodesToARecordedOneTimeUseBatchOnce(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            let winter = F.campaign("winter", offers: ["W"])
            try await F.record(ledger, F.batch("winter", "W", codeCount: 1), of: winter, codes: ["CUSTOM1"])
            try await F.record(
                ledger, F.batch("winter", "W", kind: .oneTimeUse, index: 0, codeCount: 3), of: winter, codes: [])
            #expect(try await F.codes(ledger, campaign: "winter").map(\.code) == ["CUSTOM1"])

            // A code the app's codes hold (in any case) refuses the import, naming it: nothing is attached.
            let taken = try await ledger.attachCodes(
                toOneTimeUseBatch: 0, offer: "W", campaign: "winter", codes: ["APPLE1", "custom1", "APPLE2"])
            #expect(taken == .codesTaken(codes: ["custom1"], count: 1))
            #expect(try await F.codes(ledger, campaign: "winter").map(\.code) == ["CUSTOM1"])

            let attached = try await ledger.attachCodes(
                toOneTimeUseBatch: 0, offer: "W", campaign: "winter", codes: ["APPLE1", "APPLE2", "APPLE3"])
            #expect(attached == .recorded)
            let codes = try await F.codes(ledger, campaign: "winter")
            #expect(codes.map(\.code) == ["CUSTOM1", "APPLE1", "APPLE2", "APPLE3"])
            #expect(codes.last?.kind == .oneTimeUse)

            let secret = "APPLE4"
            let again = await #expect(throws: LedgerError.self) {
                try await ledger.attachCodes(toOneTimeUseBatch: 0, offer: "W", campaign: "winter", codes: [secret])
            }
            #expect(again == .alreadyImported(campaign: "winter", offer: "W", index: 0, codeCount: 3))
            #expect(again.map { Self.mentionsNoCode($0, ["APPLE1", "APPLE2", "APPLE3", secret]) } == true)
            await #expect(throws: LedgerError.unknownBatch(campaign: "winter", offer: "W", index: 1)) {
                try await ledger.attachCodes(toOneTimeUseBatch: 1, offer: "W", campaign: "winter", codes: [])
            }
            // Index 0 of the custom codes is not a one-time-use batch.
            await #expect(throws: LedgerError.unknownBatch(campaign: "winter", offer: "X", index: 0)) {
                try await ledger.attachCodes(toOneTimeUseBatch: 0, offer: "X", campaign: "winter", codes: [])
            }
        }
    }

    // MARK: Refusals

    @Test(arguments: LedgerBackend.allCases)
    func refusesACampaignNameRecordedForAnotherApp(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            try await F.record(
                ledger, F.batch("winter", "W", codeCount: 1), of: F.campaign("winter", offers: ["W"]), codes: ["A"])
            let elsewhere = F.campaign("winter", appAppleId: F.otherAppAppleId, offers: ["W", "V"])
            let error = await #expect(throws: LedgerError.self) {
                try await ledger.recordBatch(
                    F.batch("winter", "V", codeCount: 1), campaign: elsewhere, codes: .given(["B"]))
            }
            #expect(
                error
                    == .campaignRecordedForAnotherApp(
                        campaign: "winter", recordedAppAppleId: F.appAppleId, appAppleId: F.otherAppAppleId))
            #expect(try await ledger.batches(campaign: "winter").count == 1)
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func refusesABatchThatIsNotOfTheCampaign(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger throws in
            let winter = F.campaign("winter", offers: ["W"])
            await #expect(throws: LedgerError.offerNotInCampaign(offer: "V", campaign: "winter")) {
                try await F.record(ledger, F.batch("winter", "V", codeCount: 1), of: winter, codes: ["A"])
            }
            await #expect(throws: LedgerError.batchOfAnotherCampaign(batchCampaign: "spring", campaign: "winter")) {
                try await F.record(ledger, F.batch("spring", "W", codeCount: 1), of: winter, codes: ["A"])
            }
            #expect(
                try await ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "") == .empty)
        }
    }

    // MARK: Atomicity

    @Test func anInterruptedBatchLeavesNothingBehind() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("ledger.sqlite").path
            let before = F.numberedCodes("KEEP", 1000)
            let interrupted = F.numberedCodes("LOST", 5000)
            let autumn = F.campaign("autumn", offers: ["A"])
            let winter = F.campaign("winter", offers: ["W"])
            let winterBatch = F.batch("winter", "W", codeCount: interrupted.count + 1)
            do {
                let ledger = try await CodeLedger.sqlite(path: path)
                #expect(ledger.name == path)
                try await F.record(ledger, F.batch("autumn", "A", codeCount: before.count), of: autumn, codes: before)
                // Stopped once every code is in, before the batch is sealed and committed.
                await #expect(throws: F.Interrupted()) {
                    try await ledger.recordBatch(winterBatch, campaign: winter, codes: .given(interrupted)) { count in
                        if count == interrupted.count { throw F.Interrupted() }
                    }
                }
                try await Self.expectOnlyTheCommittedBatch(ledger, path: path, kept: before, lost: interrupted)
            }
            // The file holds the same after reopening, and takes the batch again.
            let reopened = try await CodeLedger.sqlite(path: path)
            try await Self.expectOnlyTheCommittedBatch(reopened, path: path, kept: before, lost: interrupted)
            #expect(try await F.record(reopened, winterBatch, of: winter, codes: interrupted) == .recorded)
            #expect(try await F.codes(reopened, campaign: "winter").map(\.code) == interrupted)
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func anEmptyCodeFailsTheWholeBatch(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger throws in
            let winter = F.campaign("winter", offers: ["W"])
            await #expect(throws: LedgerError.emptyCode(campaign: "winter", offer: "W")) {
                try await F.record(ledger, F.batch("winter", "W", codeCount: 3), of: winter, codes: ["A1", "", "A2"])
            }
            #expect(try await ledger.batches(campaign: "winter").isEmpty)
            #expect(
                try await ledger.issuedCodes(appAppleId: F.appAppleId, among: ["A1", "A2"], excludingCampaign: "")
                    .isEmpty)
        }
    }

    @Test func aDatabaseFailureWhileInsertingRollsBackAndNamesNoCode() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("ledger.sqlite").path
            let ledger = try await CodeLedger.sqlite(path: path)
            // Another connection adds a trigger that makes SQLite refuse one code.
            try await DatabaseQueue(path: path).write { db in
                try db.execute(
                    sql: """
                        CREATE TRIGGER refuse_boom BEFORE INSERT ON codes WHEN NEW.code_key = 'BOOM7'
                        BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END
                        """)
            }
            let codes = ["SECRET1", "SECRET2", "BOOM7", "SECRET3"]
            let error = await #expect(throws: LedgerError.self) {
                try await F.record(
                    ledger, F.batch("winter", "W", codeCount: 4), of: F.campaign("winter", offers: ["W"]), codes: codes)
            }
            guard case .databaseFailure(let operation, let reason)? = error else {
                Issue.record("expected a database failure, got \(String(describing: error))")
                return
            }
            #expect(operation == "record a batch of offer \"W\" in campaign \"winter\"")
            #expect(reason.contains("refused by a test trigger"))
            #expect(error.map { Self.mentionsNoCode($0, codes) } == true)
            #expect(try await ledger.batches(campaign: "winter").isEmpty)
            #expect(try await ledger.issuedCodes(appAppleId: F.appAppleId, among: codes, excludingCampaign: "").isEmpty)
        }
    }

    @Test func sqliteFailuresAreReportedWithoutTheStatementOrItsArguments() {
        let error = DatabaseError(
            resultCode: .SQLITE_CONSTRAINT, message: "UNIQUE constraint failed: codes.app_id, codes.code_key",
            sql: "INSERT INTO codes VALUES ('SECRETCODE')", arguments: ["SECRETCODE"])
        let reason = SQLiteLedgerStore.reason(error)
        #expect(reason.hasPrefix("UNIQUE constraint failed: codes.app_id, codes.code_key"))
        #expect(!reason.contains("SECRETCODE"))
    }

    // MARK: Files

    @Test func reopeningAFileKeepsEverything() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("ledger.sqlite").path
            let winter = F.campaign("winter", offers: ["W1", "W2"])
            let batch = F.batch("winter", "W1", redemptionLimit: 3, codeCount: 2, expirationDate: nil)
            let pending = F.batch("winter", "W2", kind: .oneTimeUse, codeCount: 5, environment: .sandbox)
            do {
                let ledger = try await CodeLedger.sqlite(path: path)
                try await F.record(ledger, batch, of: winter, codes: ["WIN1", "win2"])
                try await F.record(ledger, pending, of: winter, codes: [])
                try await ledger.setOfferActive(false, offer: "W2", campaign: "winter")
            }
            let ledger = try await CodeLedger.sqlite(path: path)
            #expect(try await ledger.batches(campaign: "winter") == [batch, pending])
            #expect(try await F.codes(ledger, campaign: "winter").map(\.code) == ["WIN1", "win2"])
            #expect(
                try await ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
                    == LedgerSummary(activeOfferNames: ["W1"], productionCodes: 6, sandboxCodes: 5))
            #expect(
                try await ledger.issuedCodes(appAppleId: F.appAppleId, among: ["WIN2"], excludingCampaign: "") == [
                    "WIN2"
                ])
            #expect(
                try await ledger.attachCodes(toOneTimeUseBatch: 0, offer: "W2", campaign: "winter", codes: ["APPLE1"])
                    == .recorded)
        }
    }

    @Test func refusesAFolderThatDoesNotExist() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("missing/ledger.sqlite").path
            let error = await #expect(throws: LedgerError.self) { try await CodeLedger.sqlite(path: path) }
            guard case .cannotOpen(let errorPath, let reason)? = error else {
                Issue.record("expected cannotOpen, got \(String(describing: error))")
                return
            }
            #expect(errorPath == path)
            #expect(reason.contains("does not exist"))
        }
    }

    @Test func refusesAFileThatIsNotADatabaseWithoutQuotingIt() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("codes.csv").path
            let content = String(repeating: "SECRETCODE1\nSECRETCODE2\n", count: 400)
            try Data(content.utf8).write(to: URL(fileURLWithPath: path))
            let error = await #expect(throws: LedgerError.self) { try await CodeLedger.sqlite(path: path) }
            guard case .corrupt(let errorPath, _)? = error else {
                Issue.record("expected corrupt, got \(String(describing: error))")
                return
            }
            #expect(errorPath == path)
            #expect(error.map { Self.mentionsNoCode($0, ["SECRETCODE"]) } == true)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(content.utf8))
        }
    }

    @Test func refusesAnotherProgramsDatabase() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("notes.sqlite").path
            try await DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT)") }
            await #expect(throws: LedgerError.notALedger(path: path)) { try await CodeLedger.sqlite(path: path) }

            let migrated = folder.appendingPathComponent("app.sqlite").path
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE players (name TEXT)") }
            try migrator.migrate(DatabaseQueue(path: migrated))
            await #expect(throws: LedgerError.notALedger(path: migrated)) {
                try await CodeLedger.sqlite(path: migrated)
            }
        }
    }

    @Test func refusesALedgerOfANewerOfferKit() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("ledger.sqlite").path
            _ = try await CodeLedger.sqlite(path: path)
            try await DatabaseQueue(path: path).write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('offerkit-ledger-v99')")
            }
            await #expect(throws: LedgerError.newerSchema(path: path, unknownMigrations: ["offerkit-ledger-v99"])) {
                try await CodeLedger.sqlite(path: path)
            }
        }
    }

    @Test func reportsAValueItCannotReadBack() async throws {
        let ledger = try await CodeLedger.inMemory()
        try await F.record(
            ledger, F.batch("winter", "W", codeCount: 1), of: F.campaign("winter", offers: ["W"]), codes: ["A"])
        try await ledger.store.executeUnchecked("UPDATE batches SET expiration_date = 'soon'")
        await Self.expectCorrupt(path: ":memory:", mentioning: "expiration_date") {
            try await ledger.batches(campaign: "winter")
        }
        try await ledger.store.executeUnchecked("UPDATE batches SET expiration_date = NULL, idx = 'x'")
        await Self.expectCorrupt(path: ":memory:", mentioning: "idx") { try await F.codes(ledger, campaign: "winter") }
    }

    @Test(arguments: LedgerBackend.allCases)
    func isSafeToShareBetweenTasks(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            let campaign = F.campaign("winter", offers: ["W"])
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        let batch = F.batch("winter", "W", index: index, codeCount: 100)
                        try await F.record(ledger, batch, of: campaign, codes: F.numberedCodes("T\(index)-", 100))
                        _ = try await ledger.summary(
                            appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await ledger.batches(campaign: "winter").map(\.index).sorted() == Array(0..<8))
            #expect(try await F.codes(ledger, campaign: "winter").count == 800)
        }
    }

    // MARK: A killed process

    /// Starts a child process that records a batch into a ledger file, kills it with SIGKILL in
    /// the middle of the batch's transaction, then reopens the file.
    ///
    /// The child is this test binary, run again for ``crashChildRecordsUntilKilled()`` only.
    @Test(.enabled(if: F.canRerunTestBinary, "re-runs the test binary found at /proc/self/exe"))
    func aKilledProcessKeepsNothingOfItsBatch() async throws {
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("ledger.sqlite").path
            let kept = F.numberedCodes("KEEP", 1000)
            // Closed before the copy is taken: a ledger only let go closes its connections some
            // time later, and the last one to close folds the log into the file (once, that
            // happened after the copy, which then differed from the file).
            try await CodeLedger.withSQLite(path: path) { ledger in
                try await F.record(
                    ledger, F.batch("autumn", "A", codeCount: kept.count), of: F.campaign("autumn", offers: ["A"]),
                    codes: kept)
            }
            let committed = try Data(contentsOf: URL(fileURLWithPath: path))

            let child = try F.startCrashChild(ledgerPath: path)
            _ = await child.process.poll(upTo: 120, every: 0.01) {
                FileManager.default.fileExists(atPath: F.crashMarker(path))
            }
            let started = FileManager.default.fileExists(atPath: F.crashMarker(path))
            await child.process.kill()
            guard started else {
                Issue.record("The child process did not start recording. Its output:\n\(child.output())")
                return
            }
            #expect(child.process.terminationReason == .uncaughtSignal, "\(child.output())")
            #expect(child.process.terminationStatus == SIGKILL)
            // It died inside its write transaction, after SQLite had written the batch's pages to
            // the write-ahead log (uncommitted); the file itself holds what was committed.
            let log = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber
            #expect((log?.intValue ?? 0) > 100_000)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == committed)

            let ledger = try await CodeLedger.sqlite(path: path)
            #expect(try await Self.rowCounts(path, campaign: F.crashCampaign.name) == [0, 0, 0])
            #expect(try await Self.totalCodes(path) == kept.count)
            #expect(try await ledger.batches(campaign: F.crashCampaign.name).isEmpty)
            let crashCodes = (0..<F.crashMarkerAfter).map(F.crashCode)
            #expect(
                try await ledger.issuedCodes(appAppleId: F.appAppleId, among: crashCodes, excludingCampaign: "").isEmpty
            )
            #expect(try await F.codes(ledger, campaign: "autumn").map(\.code) == kept)
            #expect(
                try await ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
                    == LedgerSummary(activeOfferNames: ["A"], productionCodes: kept.count, sandboxCodes: 0))
            // The file takes the batch again.
            let again = Array(crashCodes.prefix(100))
            #expect(try await F.record(ledger, F.crashBatch, of: F.crashCampaign, codes: again) == .recorded)
        }
    }

    /// The child process of ``aKilledProcessKeepsNothingOfItsBatch()``; disabled in every other run.
    ///
    /// Records a batch of 999,000 codes, writes a marker file once ``LedgerFixtures/crashMarkerAfter``
    /// codes are in (the rest take seconds more), and never commits (it stops before the end).
    @Test(.enabled(if: ProcessInfo.processInfo.environment[F.crashChildVariable] != nil))
    func crashChildRecordsUntilKilled() async throws {
        let path = try #require(ProcessInfo.processInfo.environment[F.crashChildVariable])
        let ledger = try await CodeLedger.sqlite(path: path)
        // A small page cache makes SQLite write changed pages to the write-ahead log long before
        // the commit: the parent's reopen then has to leave those uncommitted pages out.
        try await ledger.store.executeUnchecked("PRAGMA cache_size = 64")
        let codes = (0..<F.crashBatch.codeCount).map(F.crashCode)
        try await ledger.recordBatch(F.crashBatch, campaign: F.crashCampaign, codes: .given(codes)) { count in
            if count >= F.crashMarkerAfter {
                _ = FileManager.default.createFile(atPath: F.crashMarker(path), contents: nil)
            }
            if count == codes.count { throw F.Interrupted() }
        }
    }

    // MARK: Helpers

    /// Rows of `campaign` in the campaigns, offers and batches tables of the ledger file at `path`.
    static func rowCounts(_ path: String, campaign: String) async throws -> [Int] {
        try await DatabaseQueue(path: path).read { db in
            try ["campaigns WHERE name = ?", "offers WHERE campaign = ?", "batches WHERE campaign = ?"].map {
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \($0)", arguments: [campaign]) ?? -1
            }
        }
    }

    /// All codes in the ledger file at `path`.
    static func totalCodes(_ path: String) async throws -> Int {
        try await DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM codes") ?? -1 }
    }

    /// Checks that the ledger holds the committed `autumn` batch and nothing of the `winter` one.
    static func expectOnlyTheCommittedBatch(_ ledger: CodeLedger, path: String, kept: [String], lost: [String])
        async throws
    {
        #expect(try await rowCounts(path, campaign: "winter") == [0, 0, 0])
        #expect(try await totalCodes(path) == kept.count)
        #expect(try await ledger.batches(campaign: "winter").isEmpty)
        #expect(try await F.codes(ledger, campaign: "winter").isEmpty)
        #expect(try await ledger.issuedCodes(appAppleId: F.appAppleId, among: lost, excludingCampaign: "").isEmpty)
        // The campaign's offers were not kept either.
        #expect(
            try await ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
                == LedgerSummary(activeOfferNames: ["A"], productionCodes: kept.count, sandboxCodes: 0))
        #expect(try await F.codes(ledger, campaign: "autumn").map(\.code) == kept)
    }

    /// Expects `body` to throw ``LedgerError/corrupt(path:reason:)`` for `path`, with `words` in its reason.
    static func expectCorrupt<T>(
        path: String, mentioning words: String..., sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> T
    ) async {
        let error = await #expect(throws: LedgerError.self, sourceLocation: sourceLocation) { _ = try await body() }
        guard case .corrupt(let errorPath, let reason)? = error else {
            Issue.record("expected corrupt, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(errorPath == path, sourceLocation: sourceLocation)
        for word in words { #expect(reason.contains(word), "\(reason)", sourceLocation: sourceLocation) }
    }

    /// Whether the error's message leaves out every one of `codes`.
    static func mentionsNoCode(_ error: LedgerError, _ codes: [String]) -> Bool {
        let message = error.localizedDescription
        return !codes.contains { message.localizedCaseInsensitiveContains($0) }
    }
}
