import Foundation
import OfferCodes
import OfferLedgerPostgres
import Testing

@testable import LedgerTestSupport
@testable import OfferLedger

/// `LedgerCopy`: a whole ledger into a new or empty one, SQLite and PostgreSQL both ways, exactly,
/// all or nothing.
@Suite("Ledger copy")
struct LedgerCopyTests {
    typealias F = LedgerFixtures
    typealias C = LedgerCopyFixtures

    /// Runs `body` with a new, empty PostgreSQL ledger; returns `false` without a server.
    @discardableResult
    static func withNewPostgres(_ body: (CodeLedger) async throws -> Void) async throws -> Bool {
        try await LedgerBackend.postgres.withNewLedger(body) != nil
    }

    /// A source filled with ``LedgerCopyFixtures/fill(_:)``, in memory.
    static func filledSource() async throws -> CodeLedger {
        let source = try await CodeLedger.inMemory()
        try await C.fill(source)
        return source
    }

    /// Runs SQL on the ledger behind its back (to damage it, or to make it refuse rows).
    static func execute(_ ledger: CodeLedger, sqlite: String, postgres: String) async throws {
        try await ledger.store.executeUnchecked(ledger.store is SQLiteLedgerStore ? sqlite : postgres)
    }

    /// The rows with every time as an SQLite ledger stores it (milliseconds with 3 digits).
    static func normalized(_ rows: C.Rows) -> C.Rows {
        for index in rows.campaigns.indices {
            rows.campaigns[index].recordedAt = LedgerRow.Timestamp(rows.campaigns[index].recordedAt.sqliteText)!
        }
        for index in rows.batches.indices {
            rows.batches[index].recordedAt = LedgerRow.Timestamp(rows.batches[index].recordedAt.sqliteText)!
        }
        for index in rows.assignments.indices {
            rows.assignments[index].assignedAt = LedgerRow.Timestamp(rows.assignments[index].assignedAt.sqliteText)!
        }
        for index in rows.connectResources.indices {
            rows.connectResources[index].updatedAt = LedgerRow.Timestamp(
                rows.connectResources[index].updatedAt.sqliteText)!
        }
        for index in rows.pricePoints.indices {
            rows.pricePoints[index].recordedAt = LedgerRow.Timestamp(rows.pricePoints[index].recordedAt.sqliteText)!
        }
        return rows
    }

    /// The ledger still works after a copy: the next claim gets the next free code, a new batch
    /// (and campaign) and a new App Store Connect resource are recorded with new ids, and a
    /// resource App Store Connect created keeps its id.
    static func expectItKeepsWorking(_ ledger: CodeLedger, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let before = try await C.Rows(ledger)
        let claimed = try await ledger.claim(recipient: "new-recipient", scope: C.scope("spring", "Half"))
        #expect(claimed.isNew && claimed.code.code == "HALF4", sourceLocation: sourceLocation)
        #expect(
            try await ledger.claim(recipient: "dan", scope: C.scope("spring", "Half")).code.code == "HALF3",
            sourceLocation: sourceLocation)
        let winter = F.campaign("winter", offers: ["Snow"])
        // A code the copy brought in is known: the batch that repeats it is refused, naming it.
        let refused = try await F.record(
            ledger, F.batch("winter", "Snow", codeCount: 2), of: winter, codes: ["SNOW1", "HALF0"])
        #expect(refused == .codesTaken(codes: ["HALF0"], count: 1), sourceLocation: sourceLocation)
        #expect(
            try await F.record(ledger, F.batch("winter", "Snow", codeCount: 1), of: winter, codes: ["SNOW1"])
                == .recorded, sourceLocation: sourceLocation)
        try await F.record(ledger, F.batch("winter", "Snow", index: 1, codeCount: 1), of: winter, codes: ["SNOW2"])
        let after = try await C.Rows(ledger)
        #expect(after.batches.count == before.batches.count + 2, sourceLocation: sourceLocation)
        let newIds = after.batches.suffix(2).map(\.id)
        #expect(newIds.allSatisfy { $0 > before.batches.map(\.id).max()! }, sourceLocation: sourceLocation)
        #expect(after.campaigns.last?.name == "winter", sourceLocation: sourceLocation)
        #expect(after.campaigns.last!.order > before.campaigns.map(\.order).max()!, sourceLocation: sourceLocation)
        #expect(after.assignments.last!.id > before.assignments.last!.id, sourceLocation: sourceLocation)
        #expect(
            try await F.codes(ledger, campaign: "winter").map(\.code) == ["SNOW1", "SNOW2"],
            sourceLocation: sourceLocation)

        let resources = try await ledger.connectResources(campaign: "spring")
        let created = try #require(resources.first { $0.state == .created }, sourceLocation: sourceLocation)
        await #expect(throws: LedgerError.self, sourceLocation: sourceLocation) {
            try await ledger.recordConnectResources([created.with(state: .created, id: "1", at: C.time(9))])
        }
        let snow = C.resource("winter", "Snow", .offer, request: "offer-1", type: "subscriptionOfferCodes")
        try await ledger.recordConnectResources([snow])
        #expect(try await ledger.connectResources(campaign: "winter") == [snow], sourceLocation: sourceLocation)
        #expect(try await ledger.connectResources(campaign: "spring") == resources, sourceLocation: sourceLocation)
        let last = try await C.Rows(ledger).connectResources.last
        #expect(last?.campaign == "winter", sourceLocation: sourceLocation)
        #expect(last!.id > before.connectResources.map(\.id).max()!, sourceLocation: sourceLocation)
        // A price point is recorded with a new id; a recorded one is kept.
        let snowPrice = ResolvedPrice(
            query: PricePointQuery(product: .subscription(id: "6450000001"), territory: "USA"), customerPrice: "4.99",
            pricePoint: "pp-winter")
        let recorded = try await ledger.recordPricePoints([snowPrice], campaign: "winter")
        #expect(recorded == [snowPrice], sourceLocation: sourceLocation)
        let prices = try await C.Rows(ledger).pricePoints
        #expect(prices.last?.campaign == "winter", sourceLocation: sourceLocation)
        #expect(prices.last!.id > before.pricePoints.map(\.id).max()!, sourceLocation: sourceLocation)
        #expect(
            try await ledger.recordedPricePoints(campaign: "spring").map(\.pricePoint)
                == before.pricePoints.filter { $0.campaign == "spring" }.map(\.price.pricePoint),
            sourceLocation: sourceLocation)
    }

    @Test func sqliteToANewSQLiteFileKeepsEverything() async throws {
        let source = try await Self.filledSource()
        try await F.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("copy.sqlite").path
            let report = try await CodeLedger.creatingNewSQLiteFile(at: path) { target in
                #expect(!FileManager.default.fileExists(atPath: path), "the file appeared before the copy was done")
                return try await LedgerCopy(from: source, to: target).run()
            }
            #expect(report.counts.campaigns == 2 && report.counts.offers == 5 && report.counts.batches == 6)
            #expect(report.counts.codes == 30 + 2 + 5 + 4 + 3)
            #expect(report.counts.assignments == 3 + 1 + 4 + 1 + 1 + 1)
            #expect(report.counts.connectResources == 4 + 2 + 1 + 1)
            #expect(report.counts.pricePoints == 2 + 1 + 1)
            #expect(try await C.Rows(source).pricePoints.map(\.campaign) == ["spring", "spring", "autumn", "spring"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["copy.sqlite"])
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)
            let copy = try await CodeLedger.sqlite(path: path)
            try await copy.checkIntegrity(thorough: true)
            #expect(try await C.Rows(copy) == C.Rows(source))
            #expect(try await C.Contents(copy) == C.Contents(source))
            try await Self.expectItKeepsWorking(copy)
        }
    }

    @Test func sqliteToPostgresAndBackKeepsEverything() async throws {
        try await Self.withNewPostgres { postgres in
            try await F.withTemporaryFolder { folder in
                let source = try await CodeLedger.sqlite(path: folder.appendingPathComponent("source.sqlite").path)
                try await C.fill(source)
                let sourceRows = try await C.Rows(source)
                let sourceContents = try await C.Contents(source)

                let there = try await LedgerCopy(from: source, to: postgres).run()
                #expect(
                    there.counts.codes == 44 && there.counts.assignments == 11 && there.counts.connectResources == 8)
                #expect(there.counts.codesPerBatch.count == 5, "\(there.counts.codesPerBatch)")
                #expect(Self.normalized(try await C.Rows(postgres)) == sourceRows)
                #expect(try await C.Contents(postgres) == sourceContents)
                try await postgres.checkIntegrity(thorough: true)

                let backPath = folder.appendingPathComponent("back.sqlite").path
                let back = try await CodeLedger.creatingNewSQLiteFile(at: backPath) { target in
                    try await LedgerCopy(from: postgres, to: target).run()
                }
                #expect(back.counts == there.counts)
                let returned = try await CodeLedger.sqlite(path: backPath)
                try await returned.checkIntegrity(thorough: true)
                // Exactly the rows of the source: ids, order, times as SQLite wrote them.
                #expect(try await C.Rows(returned) == sourceRows)
                #expect(try await C.Contents(returned) == sourceContents)

                try await Self.expectItKeepsWorking(postgres)
                try await Self.expectItKeepsWorking(returned)
            }
        }
    }

    @Test func postgresSchemaToSchemaAndThroughSQLiteKeepsMicroseconds() async throws {
        try await Self.withNewPostgres { source in
            try await Self.withNewPostgres { target in
                try await Self.withNewPostgres { again in
                    try await C.fill(source)
                    // OfferKit records assignment times to the millisecond; a time written otherwise (by an
                    // older ledger, or by hand) keeps its microseconds through a copy too.
                    try await source.store.executeUnchecked(
                        "UPDATE assignments SET assigned_at = assigned_at + interval '123 microseconds' "
                            + "WHERE id = (SELECT min(id) FROM assignments)")
                    try await source.store.executeUnchecked(
                        "UPDATE connect_resources SET updated_at = updated_at + interval '456 microseconds' "
                            + "WHERE id = (SELECT max(id) FROM connect_resources)")
                    let rows = try await C.Rows(source)
                    #expect(
                        rows.assignments.contains { !$0.assignedAt.text.hasSuffix("000Z") }, "no time with microseconds"
                    )
                    #expect(
                        rows.connectResources.contains { !$0.updatedAt.text.hasSuffix("000Z") },
                        "no time with microseconds")
                    try await LedgerCopy(from: source, to: target).run()
                    #expect(try await C.Rows(target) == rows)
                    #expect(try await C.Contents(target) == C.Contents(source))
                    // Through an SQLite file and back: SQLite keeps the microseconds (6 digits).
                    let middle = try await CodeLedger.inMemory()
                    try await LedgerCopy(from: source, to: middle).run()
                    try await LedgerCopy(from: middle, to: again).run()
                    #expect(try await C.Rows(again) == rows)
                    #expect(try await C.Contents(again) == C.Contents(source))
                    try await Self.expectItKeepsWorking(target)
                }
            }
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func aTargetThatHoldsSomethingIsRefusedAndUnchanged(backend: LedgerBackend) async throws {
        guard let place = backend.newPlace() else { return }
        let source = try await Self.filledSource()
        try await place.withLedger { target in
            try await F.record(
                target, F.batch("other", "O", codeCount: 1), of: F.campaign("other", offers: ["O"]), codes: ["ONE"])
            let before = try await C.Rows(target)
            let error = await #expect(throws: LedgerCopyError.self) {
                try await LedgerCopy(from: source, to: target).run()
            }
            #expect(
                error == .targetNotEmpty(target: target.name, campaigns: 1, batches: 1, codes: 1, assignments: 0))
            let message = error.map { $0.localizedDescription } ?? ""
            #expect(message.contains("is not empty") && message.contains("Nothing was written"), "\(message)")
            if case .postgres(let location) = place, let password = location.password {
                #expect(!message.contains(password) && message.contains(":***@"), "\(message)")
            }
            #expect(try await C.Rows(target) == before)
        }
        // An assignment alone is something too.
        try await backend.withNewLedger { other in
            try await C.fill(other)
            await #expect(throws: LedgerCopyError.self) { try await LedgerCopy(from: source, to: other).run() }
        }
    }

    @Test(
        arguments: LedgerBackend.allCases,
        [LedgerCopyFixtures.FailingStore.Point.codes, .assignments, .connectResources, .finish])
    func aFailureInTheMiddleLeavesTheTargetEmpty(
        backend: LedgerBackend, point: LedgerCopyFixtures.FailingStore.Point
    ) async throws {
        let source = try await Self.filledSource()
        try await backend.withNewLedger { target in
            await #expect(throws: C.FailingStore.Rejected()) {
                try await LedgerCopy(from: source, to: C.failing(target, at: point)).run()
            }
            #expect(try await C.Rows(target).isEmpty)
            // Still a target: the copy that does not fail goes through, and the ledger works.
            try await LedgerCopy(from: source, to: target).run()
            #expect(Self.normalized(try await C.Rows(target)) == (try await C.Rows(source)))
            try await Self.expectItKeepsWorking(target)
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func aTargetThatRejectsARowIsLeftEmpty(backend: LedgerBackend) async throws {
        let source = try await Self.filledSource()
        try await backend.withNewLedger { target in
            // The last assignment's recipient is refused, after every code went in.
            try await Self.execute(
                target,
                sqlite: """
                    CREATE TRIGGER refuse BEFORE INSERT ON assignments WHEN NEW.recipient = 'zoë ✓'
                    BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                    """,
                postgres: "ALTER TABLE assignments ADD CONSTRAINT refuse CHECK (recipient <> 'zoë ✓')")
            let error = await #expect(throws: LedgerError.self) {
                try await LedgerCopy(from: source, to: target).run()
            }
            guard case .databaseFailure(let operation, let reason)? = error else {
                Issue.record("expected a database failure, got \(String(describing: error))")
                return
            }
            #expect(operation == "write the copied assignments", "\(operation)")
            #expect(reason.contains("refuse"), "\(reason)")
            let message = error.map { $0.localizedDescription } ?? ""
            #expect(!message.contains("zoë"), "\(message)")
            #expect(try await C.Rows(target).isEmpty)
        }
    }

    @Test func aNewFileIsNotCreatedWhenTheCopyFails() async throws {
        let source = try await Self.filledSource()
        try await F.withTemporaryFolder { folder throws in
            let path = folder.appendingPathComponent("copy.sqlite").path
            await #expect(throws: C.FailingStore.Rejected()) {
                try await CodeLedger.creatingNewSQLiteFile(at: path) { target in
                    try await LedgerCopy(from: source, to: C.failing(target, at: .assignments)).run()
                }
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
            // An existing file is never replaced.
            #expect(FileManager.default.createFile(atPath: path, contents: Data("keep".utf8)))
            await #expect(throws: LedgerError.self) {
                try await CodeLedger.creatingNewSQLiteFile(at: path) {
                    try await LedgerCopy(from: source, to: $0).run()
                }
            }
            #expect(FileManager.default.contents(atPath: path) == Data("keep".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["copy.sqlite"])
            // A missing folder is named as the target's, not as the temporary file's.
            let nowhere = folder.appendingPathComponent("missing/copy.sqlite").path
            await #expect(
                throws: LedgerError.cannotOpen(
                    path: nowhere, reason: "the folder \(folder.appendingPathComponent("missing").path) does not exist")
            ) {
                try await CodeLedger.creatingNewSQLiteFile(at: nowhere) {
                    try await LedgerCopy(from: source, to: $0).run()
                }
            }
        }
    }

    /// Damage the ledger's own reads may not notice (a code's row, an assignment), and damage to an
    /// App Store Connect resource that its reads refuse, is refused by the copy, naming the
    /// source; the target stays empty.
    @Test(arguments: LedgerBackend.allCases, 0..<9)
    func aDamagedSourceIsRefused(backend: LedgerBackend, damage: Int) async throws {
        try await backend.withNewLedger { source in
            try await Self.refusesDamage(damage, of: source)
        }
    }

    /// Damages `source` (see ``aDamagedSourceIsRefused(backend:damage:)``) and expects a copy of it refused.
    static func refusesDamage(_ damage: Int, of source: CodeLedger) async throws {
        let target = try await CodeLedger.inMemory()
        try await C.fill(source)
        let (sqlite, postgres, expected): (String, String, String) =
            switch damage {
            case 0:
                (
                    "UPDATE codes SET code_key = 'HALF999' WHERE code_key = 'HALF7'",
                    "UPDATE codes SET code_key = 'HALF999' WHERE code_key = 'HALF7'", "does not match its digest"
                )
            case 1:
                (
                    "UPDATE codes SET app_id = app_id + 1 WHERE code_key = 'FALL1'",
                    "UPDATE codes SET app_id = app_id + 1 WHERE code_key = 'FALL1'", "another app"
                )
            case 2:
                (
                    "UPDATE assignments SET recipient = 'a' || char(10) WHERE recipient = 'bob'",
                    "UPDATE assignments SET recipient = E'a\\n' WHERE recipient = 'bob'", "control character"
                )
            case 3:
                (
                    "UPDATE codes SET seq = 100 WHERE code_key = 'HALF29'",
                    "UPDATE codes SET seq = 100 WHERE code_key = 'HALF29'", "not numbered 0, 1, 2"
                )
            case 4:
                (
                    "UPDATE codes SET code = 'fall9' WHERE code_key = 'FALL2'",
                    "UPDATE codes SET code = 'fall9' WHERE code_key = 'FALL2'", "upper-cased key"
                )
            case 5:
                (
                    "UPDATE connect_resources SET error = NULL WHERE state = 'failed'",
                    "UPDATE connect_resources SET error = NULL WHERE state = 'failed'",
                    "resource 2 is damaged: it failed but records no error"
                )
            case 6:
                (
                    "UPDATE connect_resources SET body_digest = upper(body_digest) WHERE campaign = 'autumn'",
                    "UPDATE connect_resources SET body_digest = upper(body_digest) WHERE campaign = 'autumn'",
                    "is damaged: its body digest is not 64 lower-case hex digits"
                )
            case 7:
                (
                    "UPDATE connect_resources SET asc_id = '67 44' WHERE state = 'created'",
                    "UPDATE connect_resources SET asc_id = '67 44' WHERE state = 'created'",
                    "is damaged: its App Store Connect id is not 1 to 256 printable bytes"
                )
            default:
                (
                    "UPDATE connect_resources SET offer = 'Gone' WHERE campaign = 'autumn'",
                    "UPDATE connect_resources SET offer = 'Gone' WHERE campaign = 'autumn'",
                    "resource 5 names an offer that has no row"
                )
            }
        // Damage 8, a resource of an offer code whose offer has no row: no foreign key stops it since
        // the resources' key names the campaign only (promotional offers have no offers row).
        try await execute(source, sqlite: sqlite, postgres: postgres)
        let error = await #expect(throws: LedgerError.self) { try await LedgerCopy(from: source, to: target).run() }
        guard case .corrupt(let path, let reason)? = error else {
            Issue.record("expected the source to be found damaged, got \(String(describing: error))")
            return
        }
        #expect(path == source.name)
        #expect(reason.contains(expected), "\(reason)")
        #expect(try await C.Rows(target).isEmpty)
    }

    @Test func anEmptySourceIsRefused() async throws {
        let source = try await CodeLedger.inMemory()
        let target = try await CodeLedger.inMemory()
        await #expect(throws: LedgerCopyError.sourceEmpty(source: ":memory:")) {
            try await LedgerCopy(from: source, to: target).run()
        }
    }

    @Test func timestampsAreTakenAsLedgersWriteThem() {
        #expect(LedgerRow.Timestamp("2027-01-05T09:30:00.125Z")?.sqliteText == "2027-01-05T09:30:00.125Z")
        #expect(LedgerRow.Timestamp("2027-01-05T09:30:00.125000Z")?.sqliteText == "2027-01-05T09:30:00.125Z")
        #expect(LedgerRow.Timestamp("2027-01-05T09:30:00.125001Z")?.sqliteText == "2027-01-05T09:30:00.125001Z")
        for bad in [
            "", "2027-01-05 09:30:00.125Z", "2027-01-05T09:30:00Z", "2027-01-05T09:30:00.12Z",
            "2027-13-05T09:30:00.125Z",
            "2027-01-05T09:30:00.125+00:00", "2027-01-05T09:30:00.1250Z", "२०२७-01-05T09:30:00.125Z",
        ] {
            #expect(LedgerRow.Timestamp(bad) == nil, "\(bad)")
        }
    }

    /// How long a copy of 1,000,000 codes and 100,000 assignments takes, SQLite to PostgreSQL and
    /// back, and the peak memory of each copy. A measurement, not a timed test: it runs only with
    /// `OFFERKIT_LEDGER_MEASURE=1` (and a PostgreSQL server); the README quotes its numbers.
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["OFFERKIT_LEDGER_MEASURE"] == "1", "set OFFERKIT_LEDGER_MEASURE=1"))
    func copiesAMillionCodes() async throws {
        try await Self.withNewPostgres { postgres in
            try await F.withTemporaryFolder { folder in
                let source = try await CodeLedger.sqlite(path: folder.appendingPathComponent("million.sqlite").path)
                let campaign = F.campaign("million", offers: ["M"])
                let count = 1_000_000
                try await F.record(
                    source, F.batch("million", "M", codeCount: count), of: campaign,
                    codes: (0..<count).map { "M\(String($0, radix: 36, uppercase: true))X" })
                let recipients = (0..<100_000).map { "user-\($0)" }
                try await source.assign(
                    recipients: recipients, scope: AssignmentScope(campaign: "million", offer: "M", today: C.today),
                    channel: .export)
                func measure(_ label: String, _ body: () async throws -> LedgerCopy.Report) async throws {
                    Self.resetPeakMemory()
                    let start = ContinuousClock.now
                    let report = try await body()
                    let seconds = (ContinuousClock.now - start) / .seconds(1)
                    print(
                        "ledger copy [\(label)]: \(report.counts.codes) codes, \(report.counts.assignments) assignments "
                            + "in \(seconds) s = \(Int(Double(report.counts.codes) / seconds)) codes/s; peak memory "
                            + "\(Self.peakMemoryMebibytes().map { "\($0) MiB" } ?? "unknown")")
                    #expect(report.counts.codes == count && report.counts.assignments == recipients.count)
                }
                try await measure("sqlite to postgres") { try await LedgerCopy(from: source, to: postgres).run() }
                let back = folder.appendingPathComponent("back.sqlite").path
                try await measure("postgres to sqlite") {
                    try await CodeLedger.creatingNewSQLiteFile(at: back) {
                        try await LedgerCopy(from: postgres, to: $0).run()
                    }
                }
            }
        }
    }

    /// Resets the process's peak resident memory (Linux: `/proc/self/clear_refs`).
    static func resetPeakMemory() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    /// The process's peak resident memory since the last reset (Linux: `VmHWM`).
    static func peakMemoryMebibytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kibibytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kibibytes / 1024
    }
}
