import Foundation
import GRDB
import Testing

@testable import OfferCodes

@Suite("SQLite code ledger")
struct SQLiteLedgerTests {
    typealias F = LedgerFixtures

    // MARK: Recording and reading back

    @Test(arguments: LedgerBackend.allCases)
    func recordsBatchesAndStreamsTheirCodesInBatchThenInsertionOrder(backend: LedgerBackend) throws {
        guard let ledger = try backend.newLedger() else { return }
        if let sqlite = ledger as? SQLiteLedger { #expect(sqlite.path == nil) }
        let campaign = F.campaign("spring-2027", offers: ["Half price", "Gems"])
        let gems = F.batch("spring-2027", "Gems", redemptionLimit: 100, codeCount: 2, expirationDate: nil)
        let half0 = F.batch("spring-2027", "Half price", codeCount: 3)
        let half1 = F.batch("spring-2027", "Half price", kind: .oneTimeUse, codeCount: 2, environment: .sandbox)
        #expect(try F.record(ledger, gems, of: campaign, codes: ["GEMS1", "GEMS2"]).recorded)
        #expect(try F.record(ledger, half0, of: campaign, codes: ["HALF3", "HALF1", "HALF2"]).recorded)
        #expect(try F.record(ledger, half1, of: campaign, codes: ["OTU2", "OTU1"]).recorded)

        #expect(try ledger.batches(campaign: "spring-2027") == [gems, half0, half1])
        #expect(try ledger.batches(campaign: "autumn").isEmpty)
        let all = try F.codes(ledger, campaign: "spring-2027")
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
        let half = try F.codes(ledger, campaign: "spring-2027", offer: "Half price")
        #expect(half.map(\.code) == ["HALF3", "HALF1", "HALF2", "OTU2", "OTU1"])
        #expect(try F.codes(ledger, campaign: "spring-2027", offer: "Missing").isEmpty)
    }

    @Test(arguments: LedgerBackend.allCases)
    func recordingABatchAgainChangesNothing(backend: LedgerBackend) throws {
        guard let ledger = try backend.newLedger() else { return }
        let campaign = F.campaign("spring-2027", offers: ["Gems"])
        let batch = F.batch("spring-2027", "Gems", codeCount: 2)
        #expect(try F.record(ledger, batch, of: campaign, codes: ["GEMS1", "GEMS2"]).recorded)
        var called = false
        let again = try ledger.recordBatch(batch, campaign: campaign) { insert in
            called = true
            _ = try insert("GEMS3")
        }
        #expect(!again)
        #expect(!called)
        #expect(try ledger.batches(campaign: "spring-2027") == [batch])
        #expect(try F.codes(ledger, campaign: "spring-2027").map(\.code) == ["GEMS1", "GEMS2"])
    }

    @Test(arguments: LedgerBackend.allCases)
    func refusesACodeAlreadyIssuedForTheAppButNotForAnotherApp(backend: LedgerBackend) throws {
        guard let ledger = try backend.newLedger() else { return }
        let autumn = F.campaign("autumn", offers: ["A"])
        let spring = F.campaign("spring", offers: ["S"])
        let other = F.campaign("other-app", appAppleId: F.otherAppAppleId, offers: ["O"])
        try F.record(ledger, F.batch("autumn", "A", codeCount: 1), of: autumn, codes: ["SPRING27"])

        let inSpring = try F.record(
            ledger, F.batch("spring", "S", codeCount: 2), of: spring, codes: ["spring27", "SPRING28"])
        #expect(inSpring == (true, ["spring27"]))
        #expect(try F.codes(ledger, campaign: "spring").map(\.code) == ["SPRING28"])

        let inOther = try F.record(ledger, F.batch("other-app", "O", codeCount: 1), of: other, codes: ["SPRING27"])
        #expect(inOther == (true, []))
    }

    @Test(arguments: LedgerBackend.allCases)
    func refusesDuplicatesWithinABatchCaseInsensitively(backend: LedgerBackend) throws {
        guard let ledger = try backend.newLedger() else { return }
        let campaign = F.campaign("spring", offers: ["S"])
        let result = try F.record(
            ledger, F.batch("spring", "S", codeCount: 3), of: campaign, codes: ["X1", "X1", "x1", "X2", "x3"])
        #expect(result == (true, ["X1", "x1"]))
        // Stored as issued, compared upper-cased.
        #expect(try F.codes(ledger, campaign: "spring").map(\.code) == ["X1", "X2", "x3"])
        #expect(try ledger.issuedCodes(appAppleId: F.appAppleId, among: ["X3"], excludingCampaign: "") == ["X3"])
    }

    @Test(arguments: LedgerBackend.allCases)
    func findsIssuedCodesCaseInsensitivelyLeavingOutOneCampaign(backend: LedgerBackend) throws {
        guard let ledger = try backend.newLedger() else { return }
        let winter = F.campaign("winter", offers: ["W"])
        try F.record(ledger, F.batch("winter", "W", codeCount: 2), of: winter, codes: ["SPRING27", "abc12345"])
        let among = ["spring27", "ABC12345", "NEW00001"]
        #expect(
            try ledger.issuedCodes(appAppleId: F.appAppleId, among: among, excludingCampaign: "spring")
                == ["SPRING27", "ABC12345"])
        #expect(try ledger.issuedCodes(appAppleId: F.appAppleId, among: among, excludingCampaign: "winter").isEmpty)
        #expect(try ledger.issuedCodes(appAppleId: F.otherAppAppleId, among: among, excludingCampaign: "").isEmpty)
        #expect(try ledger.issuedCodes(appAppleId: F.appAppleId, among: [], excludingCampaign: "").isEmpty)
    }

    @Test(arguments: LedgerBackend.allCases)
    func summarizesOtherCampaignsOfTheAppForTheQuarter(backend: LedgerBackend) throws {
        guard let ledger = try backend.newLedger() else { return }
        let winter = F.campaign("winter", offers: ["W1", "W2"])
        let spring = F.campaign("spring", offers: ["S1"])
        let other = F.campaign("other-app", appAppleId: F.otherAppAppleId, offers: ["O1"])
        try F.record(
            ledger, F.batch("winter", "W1", redemptionLimit: 10, codeCount: 3), of: winter, codes: ["A", "B", "C"])
        try F.record(
            ledger, F.batch("winter", "W1", kind: .oneTimeUse, codeCount: 500, environment: .sandbox), of: winter,
            codes: [])
        try F.record(
            ledger, F.batch("winter", "W2", kind: .oneTimeUse, quarter: "2027-Q2", codeCount: 100), of: winter,
            codes: [])
        try F.record(ledger, F.batch("spring", "S1", redemptionLimit: 5, codeCount: 2), of: spring, codes: ["D", "E"])
        try F.record(ledger, F.batch("other-app", "O1", redemptionLimit: 1000, codeCount: 1), of: other, codes: ["F"])

        let withoutSpring = try ledger.summary(
            appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "spring")
        #expect(withoutSpring == LedgerSummary(activeOfferNames: ["W1", "W2"], productionCodes: 30, sandboxCodes: 500))
        let everything = try ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
        #expect(
            everything == LedgerSummary(activeOfferNames: ["W1", "W2", "S1"], productionCodes: 40, sandboxCodes: 500))
        let nextQuarter = try ledger.summary(appAppleId: F.appAppleId, quarter: "2027-Q2", excludingCampaign: "spring")
        #expect(nextQuarter == LedgerSummary(activeOfferNames: ["W1", "W2"], productionCodes: 100, sandboxCodes: 0))
        #expect(try ledger.summary(appAppleId: "5555", quarter: F.quarter, excludingCampaign: "") == .empty)

        try ledger.setOfferActive(false, offer: "W1", campaign: "winter")
        let afterSwitch = try ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
        #expect(afterSwitch == LedgerSummary(activeOfferNames: ["W2", "S1"], productionCodes: 40, sandboxCodes: 500))
        try ledger.setOfferActive(true, offer: "W1", campaign: "winter")
        try ledger.setOfferActive(true, offer: "W1", campaign: "winter")
        #expect(
            try ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "").activeOfferNames
                == ["W1", "W2", "S1"])
    }

    @Test(arguments: LedgerBackend.allCases)
    func keepsTheActiveSwitchWhenTheCampaignIsRecordedAgain(backend: LedgerBackend) throws {
        guard let ledger = try backend.newLedger() else { return }
        let winter = F.campaign("winter", offers: ["W1", "W2"])
        try F.record(ledger, F.batch("winter", "W1", codeCount: 1), of: winter, codes: ["A"])
        try ledger.setOfferActive(false, offer: "W2", campaign: "winter")
        try F.record(ledger, F.batch("winter", "W2", codeCount: 1), of: winter, codes: ["B"])
        #expect(
            try ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "").activeOfferNames
                == ["W1"])
    }

    @Test(arguments: LedgerBackend.allCases)
    func refusesToSwitchAnUnknownOffer(backend: LedgerBackend) throws {
        guard let ledger = try backend.newLedger() else { return }
        #expect(throws: LedgerError.unknownOffer(offer: "W1", campaign: "winter")) {
            try ledger.setOfferActive(false, offer: "W1", campaign: "winter")
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func attachesAppleCodesToARecordedOneTimeUseBatchOnce(backend: LedgerBackend) throws {
        guard let ledger = try backend.newLedger() else { return }
        let winter = F.campaign("winter", offers: ["W"])
        try F.record(ledger, F.batch("winter", "W", codeCount: 1), of: winter, codes: ["CUSTOM1"])
        try F.record(ledger, F.batch("winter", "W", kind: .oneTimeUse, index: 0, codeCount: 3), of: winter, codes: [])
        #expect(try F.codes(ledger, campaign: "winter").map(\.code) == ["CUSTOM1"])

        #expect(throws: F.Interrupted()) {
            try ledger.attachCodes(toOneTimeUseBatch: 0, offer: "W", campaign: "winter") { insert in
                _ = try insert("APPLE1")
                throw F.Interrupted()
            }
        }
        #expect(try F.codes(ledger, campaign: "winter").map(\.code) == ["CUSTOM1"])

        var refused: [String] = []
        try ledger.attachCodes(toOneTimeUseBatch: 0, offer: "W", campaign: "winter") { insert in
            for code in ["APPLE1", "custom1", "APPLE2", "APPLE3"] {
                if try !insert(code) { refused.append(code) }
            }
        }
        #expect(refused == ["custom1"])
        let codes = try F.codes(ledger, campaign: "winter")
        #expect(codes.map(\.code) == ["CUSTOM1", "APPLE1", "APPLE2", "APPLE3"])
        #expect(codes.last?.kind == .oneTimeUse)

        let secret = "APPLE4"
        let again = #expect(throws: LedgerError.self) {
            try ledger.attachCodes(toOneTimeUseBatch: 0, offer: "W", campaign: "winter") { _ = try $0(secret) }
        }
        #expect(again == .alreadyImported(campaign: "winter", offer: "W", index: 0, codeCount: 3))
        #expect(again.map { Self.mentionsNoCode($0, ["APPLE1", "APPLE2", "APPLE3", secret]) } == true)
        #expect(throws: LedgerError.unknownBatch(campaign: "winter", offer: "W", index: 1)) {
            try ledger.attachCodes(toOneTimeUseBatch: 1, offer: "W", campaign: "winter") { _ in }
        }
        // Index 0 of the custom codes is not a one-time-use batch.
        #expect(throws: LedgerError.unknownBatch(campaign: "winter", offer: "X", index: 0)) {
            try ledger.attachCodes(toOneTimeUseBatch: 0, offer: "X", campaign: "winter") { _ in }
        }
    }

    // MARK: Refusals

    @Test(arguments: LedgerBackend.allCases)
    func refusesACampaignNameRecordedForAnotherApp(backend: LedgerBackend) throws {
        guard let ledger = try backend.newLedger() else { return }
        try F.record(
            ledger, F.batch("winter", "W", codeCount: 1), of: F.campaign("winter", offers: ["W"]), codes: ["A"])
        let elsewhere = F.campaign("winter", appAppleId: F.otherAppAppleId, offers: ["W", "V"])
        var called = false
        let error = #expect(throws: LedgerError.self) {
            try ledger.recordBatch(F.batch("winter", "V", codeCount: 1), campaign: elsewhere) { _ in called = true }
        }
        #expect(
            error
                == .campaignRecordedForAnotherApp(
                    campaign: "winter", recordedAppAppleId: F.appAppleId, appAppleId: F.otherAppAppleId))
        #expect(!called)
        #expect(try ledger.batches(campaign: "winter").count == 1)
    }

    @Test(arguments: LedgerBackend.allCases)
    func refusesABatchThatIsNotOfTheCampaign(backend: LedgerBackend) throws {
        guard let ledger = try backend.newLedger() else { return }
        let winter = F.campaign("winter", offers: ["W"])
        #expect(throws: LedgerError.offerNotInCampaign(offer: "V", campaign: "winter")) {
            try F.record(ledger, F.batch("winter", "V", codeCount: 1), of: winter, codes: ["A"])
        }
        #expect(throws: LedgerError.batchOfAnotherCampaign(batchCampaign: "spring", campaign: "winter")) {
            try F.record(ledger, F.batch("spring", "W", codeCount: 1), of: winter, codes: ["A"])
        }
        #expect(try ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "") == .empty)
    }

    // MARK: Atomicity

    @Test func anInterruptedBatchLeavesNothingBehind() throws {
        try F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("ledger.sqlite").path
            let before = F.numberedCodes("KEEP", 1000)
            let interrupted = F.numberedCodes("LOST", 5000)
            let autumn = F.campaign("autumn", offers: ["A"])
            let winter = F.campaign("winter", offers: ["W"])
            let winterBatch = F.batch("winter", "W", codeCount: interrupted.count + 1)
            do {
                let ledger = try SQLiteLedger(path: path)
                #expect(ledger.path == path)
                try F.record(ledger, F.batch("autumn", "A", codeCount: before.count), of: autumn, codes: before)
                #expect(throws: F.Interrupted()) {
                    try ledger.recordBatch(winterBatch, campaign: winter) { insert in
                        for code in interrupted { #expect(try insert(code)) }
                        throw F.Interrupted()
                    }
                }
                try Self.expectOnlyTheCommittedBatch(ledger, kept: before, lost: interrupted)
            }
            // The file holds the same after reopening, and takes the batch again.
            let reopened = try SQLiteLedger(path: path)
            try Self.expectOnlyTheCommittedBatch(reopened, kept: before, lost: interrupted)
            #expect(try F.record(reopened, winterBatch, of: winter, codes: interrupted) == (true, []))
            #expect(try F.codes(reopened, campaign: "winter").map(\.code) == interrupted)
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func aFailedInsertFailsTheBatchEvenWhenTheCallerSwallowsTheError(backend: LedgerBackend) throws {
        guard let ledger = try backend.newLedger() else { return }
        let winter = F.campaign("winter", offers: ["W"])
        var errors: [any Error] = []
        #expect(throws: LedgerError.emptyCode(campaign: "winter", offer: "W")) {
            try ledger.recordBatch(F.batch("winter", "W", codeCount: 3), campaign: winter) { insert in
                for code in ["A1", "", "A2"] {
                    do { _ = try insert(code) } catch { errors.append(error) }
                }
            }
        }
        #expect(errors.count == 2)
        #expect(try ledger.batches(campaign: "winter").isEmpty)
        #expect(try ledger.issuedCodes(appAppleId: F.appAppleId, among: ["A1", "A2"], excludingCampaign: "").isEmpty)
    }

    @Test func aDatabaseFailureWhileInsertingRollsBackAndNamesNoCode() throws {
        try F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("ledger.sqlite").path
            let ledger = try SQLiteLedger(path: path)
            // Another connection adds a trigger that makes SQLite refuse one code.
            try DatabaseQueue(path: path).write { db in
                try db.execute(
                    sql: """
                        CREATE TRIGGER refuse_boom BEFORE INSERT ON codes WHEN NEW.code_key = 'BOOM7'
                        BEGIN SELECT RAISE(ABORT, 'refused by a test trigger'); END
                        """)
            }
            let codes = ["SECRET1", "SECRET2", "BOOM7", "SECRET3"]
            var insertErrors = 0
            let error = #expect(throws: LedgerError.self) {
                try ledger.recordBatch(
                    F.batch("winter", "W", codeCount: 4), campaign: F.campaign("winter", offers: ["W"])
                ) {
                    insert in
                    for code in codes {
                        do { _ = try insert(code) } catch { insertErrors += 1 }
                    }
                }
            }
            #expect(insertErrors == 2)
            guard case .databaseFailure(let operation, let reason)? = error else {
                Issue.record("expected a database failure, got \(String(describing: error))")
                return
            }
            #expect(operation == "record a batch of offer \"W\" in campaign \"winter\"")
            #expect(reason.contains("refused by a test trigger"))
            #expect(error.map { Self.mentionsNoCode($0, codes) } == true)
            #expect(try ledger.batches(campaign: "winter").isEmpty)
            #expect(try ledger.issuedCodes(appAppleId: F.appAppleId, among: codes, excludingCampaign: "").isEmpty)
        }
    }

    @Test func sqliteFailuresAreReportedWithoutTheStatementOrItsArguments() {
        let error = DatabaseError(
            resultCode: .SQLITE_CONSTRAINT, message: "UNIQUE constraint failed: codes.app_id, codes.code_key",
            sql: "INSERT INTO codes VALUES ('SECRETCODE')", arguments: ["SECRETCODE"])
        let reason = SQLiteLedger.reason(error)
        #expect(reason.hasPrefix("UNIQUE constraint failed: codes.app_id, codes.code_key"))
        #expect(!reason.contains("SECRETCODE"))
    }

    // MARK: Files

    @Test func reopeningAFileKeepsEverything() throws {
        try F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("ledger.sqlite").path
            let winter = F.campaign("winter", offers: ["W1", "W2"])
            let batch = F.batch("winter", "W1", redemptionLimit: 3, codeCount: 2, expirationDate: nil)
            let pending = F.batch("winter", "W2", kind: .oneTimeUse, codeCount: 5, environment: .sandbox)
            do {
                let ledger = try SQLiteLedger(path: path)
                try F.record(ledger, batch, of: winter, codes: ["WIN1", "win2"])
                try F.record(ledger, pending, of: winter, codes: [])
                try ledger.setOfferActive(false, offer: "W2", campaign: "winter")
            }
            let ledger = try SQLiteLedger(path: path)
            #expect(try ledger.batches(campaign: "winter") == [batch, pending])
            #expect(try F.codes(ledger, campaign: "winter").map(\.code) == ["WIN1", "win2"])
            #expect(
                try ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
                    == LedgerSummary(activeOfferNames: ["W1"], productionCodes: 6, sandboxCodes: 5))
            #expect(
                try ledger.issuedCodes(appAppleId: F.appAppleId, among: ["WIN2"], excludingCampaign: "") == ["WIN2"])
            try ledger.attachCodes(toOneTimeUseBatch: 0, offer: "W2", campaign: "winter") { _ = try $0("APPLE1") }
        }
    }

    @Test func refusesAFolderThatDoesNotExist() throws {
        try F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("missing/ledger.sqlite").path
            let error = #expect(throws: LedgerError.self) { try SQLiteLedger(path: path) }
            guard case .cannotOpen(let errorPath, let reason)? = error else {
                Issue.record("expected cannotOpen, got \(String(describing: error))")
                return
            }
            #expect(errorPath == path)
            #expect(reason.contains("does not exist"))
        }
    }

    @Test func refusesAFileThatIsNotADatabaseWithoutQuotingIt() throws {
        try F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("codes.csv").path
            let content = String(repeating: "SECRETCODE1\nSECRETCODE2\n", count: 400)
            try Data(content.utf8).write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: LedgerError.self) { try SQLiteLedger(path: path) }
            guard case .corrupt(let errorPath, _)? = error else {
                Issue.record("expected corrupt, got \(String(describing: error))")
                return
            }
            #expect(errorPath == path)
            #expect(error.map { Self.mentionsNoCode($0, ["SECRETCODE"]) } == true)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(content.utf8))
        }
    }

    @Test func refusesAnotherProgramsDatabase() throws {
        try F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("notes.sqlite").path
            try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT)") }
            #expect(throws: LedgerError.notALedger(path: path)) { try SQLiteLedger(path: path) }

            let migrated = folder.appendingPathComponent("app.sqlite").path
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE players (name TEXT)") }
            try migrator.migrate(DatabaseQueue(path: migrated))
            #expect(throws: LedgerError.notALedger(path: migrated)) { try SQLiteLedger(path: migrated) }
        }
    }

    @Test func refusesALedgerOfANewerOfferKit() throws {
        try F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("ledger.sqlite").path
            _ = try SQLiteLedger(path: path)
            try DatabaseQueue(path: path).write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('offerkit-ledger-v99')")
            }
            #expect(throws: LedgerError.newerSchema(path: path, unknownMigrations: ["offerkit-ledger-v99"])) {
                try SQLiteLedger(path: path)
            }
        }
    }

    @Test func reportsAValueItCannotReadBack() throws {
        let ledger = try SQLiteLedger.inMemory()
        try F.record(
            ledger, F.batch("winter", "W", codeCount: 1), of: F.campaign("winter", offers: ["W"]), codes: ["A"])
        try ledger.database.write { db in try db.execute(sql: "UPDATE batches SET expiration_date = 'soon'") }
        Self.expectCorrupt(path: ":memory:", mentioning: "expiration_date") { try ledger.batches(campaign: "winter") }
        try ledger.database.write { db in try db.execute(sql: "UPDATE batches SET expiration_date = NULL, idx = 'x'") }
        Self.expectCorrupt(path: ":memory:", mentioning: "idx") { try F.codes(ledger, campaign: "winter") }
    }

    @Test(arguments: LedgerBackend.allCases)
    func isSafeToShareBetweenTasks(backend: LedgerBackend) async throws {
        guard let ledger = try backend.newLedger() else { return }
        let campaign = F.campaign("winter", offers: ["W"])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let batch = F.batch("winter", "W", index: index, codeCount: 100)
                    try F.record(ledger, batch, of: campaign, codes: F.numberedCodes("T\(index)-", 100))
                    _ = try ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
                }
            }
            try await group.waitForAll()
        }
        #expect(try ledger.batches(campaign: "winter").map(\.index).sorted() == Array(0..<8))
        #expect(try F.codes(ledger, campaign: "winter").count == 800)
    }

    // MARK: A killed process

    /// Starts a child process that records a batch into a ledger file, kills it with SIGKILL in
    /// the middle of the batch's transaction, then reopens the file.
    ///
    /// The child is this test binary, run again for ``crashChildRecordsUntilKilled()`` only.
    @Test(.enabled(if: F.canRerunTestBinary, "re-runs the test binary found at /proc/self/exe"))
    func aKilledProcessKeepsNothingOfItsBatch() async throws {
        try await F.withTemporaryFolderAwaiting { folder in
            let path = folder.appendingPathComponent("ledger.sqlite").path
            let kept = F.numberedCodes("KEEP", 1000)
            do {
                let ledger = try SQLiteLedger(path: path)
                try F.record(
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

            let ledger = try SQLiteLedger(path: path)
            #expect(try Self.rowCounts(ledger, campaign: F.crashCampaign.name) == [0, 0, 0])
            #expect(try Self.totalCodes(ledger) == kept.count)
            #expect(try ledger.batches(campaign: F.crashCampaign.name).isEmpty)
            let crashCodes = (0..<F.crashMarkerAfter).map(F.crashCode)
            #expect(try ledger.issuedCodes(appAppleId: F.appAppleId, among: crashCodes, excludingCampaign: "").isEmpty)
            #expect(try F.codes(ledger, campaign: "autumn").map(\.code) == kept)
            #expect(
                try ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
                    == LedgerSummary(activeOfferNames: ["A"], productionCodes: kept.count, sandboxCodes: 0))
            // The file takes the batch again.
            let again = Array(crashCodes.prefix(100))
            #expect(try F.record(ledger, F.crashBatch, of: F.crashCampaign, codes: again) == (true, []))
        }
    }

    /// The child process of ``aKilledProcessKeepsNothingOfItsBatch()``; disabled in every other run.
    ///
    /// Records codes into one batch without end, writes a marker file once
    /// ``LedgerFixtures/crashMarkerAfter`` codes are in, and waits to be killed (it gives up
    /// without committing after two minutes).
    @Test(.enabled(if: ProcessInfo.processInfo.environment[F.crashChildVariable] != nil))
    func crashChildRecordsUntilKilled() throws {
        let path = try #require(ProcessInfo.processInfo.environment[F.crashChildVariable])
        let ledger = try SQLiteLedger(path: path)
        // A small page cache makes SQLite write changed pages to the write-ahead log long before
        // the commit: the parent's reopen then has to leave those uncommitted pages out.
        try ledger.database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA cache_size = 64") }
        let deadline = Date().addingTimeInterval(120)
        try ledger.recordBatch(F.crashBatch, campaign: F.crashCampaign) { insert in
            var count = 0
            while count % 1000 != 0 || Date() < deadline {
                guard try insert(F.crashCode(count)) else { throw F.Interrupted() }
                count += 1
                if count == F.crashMarkerAfter {
                    _ = FileManager.default.createFile(atPath: F.crashMarker(path), contents: nil)
                }
            }
            throw F.Interrupted()
        }
    }

    // MARK: Helpers

    /// Rows of `campaign` in the campaigns, offers and batches tables.
    static func rowCounts(_ ledger: SQLiteLedger, campaign: String) throws -> [Int] {
        try ledger.database.read { db in
            try ["campaigns WHERE name = ?", "offers WHERE campaign = ?", "batches WHERE campaign = ?"].map {
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \($0)", arguments: [campaign]) ?? -1
            }
        }
    }

    /// All codes in the ledger.
    static func totalCodes(_ ledger: SQLiteLedger) throws -> Int {
        try ledger.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM codes") ?? -1 }
    }

    /// Checks that the ledger holds the committed `autumn` batch and nothing of the `winter` one.
    static func expectOnlyTheCommittedBatch(_ ledger: SQLiteLedger, kept: [String], lost: [String]) throws {
        #expect(try rowCounts(ledger, campaign: "winter") == [0, 0, 0])
        #expect(try totalCodes(ledger) == kept.count)
        #expect(try ledger.batches(campaign: "winter").isEmpty)
        #expect(try F.codes(ledger, campaign: "winter").isEmpty)
        #expect(try ledger.issuedCodes(appAppleId: F.appAppleId, among: lost, excludingCampaign: "").isEmpty)
        // The campaign's offers were not kept either.
        #expect(
            try ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
                == LedgerSummary(activeOfferNames: ["A"], productionCodes: kept.count, sandboxCodes: 0))
        #expect(try F.codes(ledger, campaign: "autumn").map(\.code) == kept)
    }

    /// Expects `body` to throw ``LedgerError/corrupt(path:reason:)`` for `path`, with `words` in its reason.
    static func expectCorrupt<T>(
        path: String, mentioning words: String..., sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> T
    ) {
        let error = #expect(throws: LedgerError.self, sourceLocation: sourceLocation) { _ = try body() }
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
