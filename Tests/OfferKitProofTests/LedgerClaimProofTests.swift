import Foundation
import OfferCodes
import Testing

@testable import LedgerTestSupport
@testable import OfferLedger

/// The proof that codes are handed out exactly once when many processes claim at the same time,
/// on each backend: processes (this test binary run again, ``ClaimWorker``) claim codes for
/// overlapping shares of the recipients, so that two processes claim the same recipient at about
/// the same moment; some are killed with SIGKILL in the middle and others claim their share again;
/// other processes record and import codes of the same offer meanwhile. Afterwards every
/// recipient holds exactly one code, no code went to two recipients, every process was told the
/// code the ledger holds, and `status` adds up.
///
/// The suite runs its tests one after the other: each already keeps the machine's cores busy.
/// Each prints the claims per second it saw (a measurement, never an assertion).
@Suite("Code ledger: claims from many processes at once", .serialized)
struct LedgerClaimProofTests {
    typealias F = LedgerFixtures

    static let today = "2027-02-01"
    /// How long a test waits for its processes before it gives up: a guard against a hang, far
    /// above what the proof takes.
    static let hangGuard: TimeInterval = 300

    // MARK: 8 processes, 10,000 recipients, 3 processes killed

    static let recipientCount = 10_000
    static let shares = 8
    /// Each worker also claims every 4th recipient of the next share.
    static let overlapEvery = 4
    /// The shares whose first worker is killed, and after how many logged claims.
    static let victims = [1: 150, 4: 500, 6: 900]
    /// A worker that takes over a killed one's share claims again this many of the recipients
    /// the killed one logged (and then the rest of the share).
    static let reclaimed = 50

    @Test(
        .enabled(if: F.canRerunTestBinary, "re-runs the test binary found at /proc/self/exe"),
        arguments: LedgerBackend.allCases)
    func eightProcessesClaimTenThousandCodesWhileThreeAreKilled(backend: LedgerBackend) async throws {
        let testStarted = Date()
        try await backend.withSharedPlace { place in
            guard let locator = place.locator else {
                Issue.record("the ledger cannot be named to another process")
                return
            }
            try await place.withLedger { ledger in
                // 10,000 personal codes in two batches (claims cross from one to the other), and 50 spare.
                let campaign = F.campaign("proof", offers: ["P"])
                try await F.record(
                    ledger, F.batch("proof", "P", index: 0, codeCount: 6_000), of: campaign,
                    codes: F.numberedCodes("PROOFA", 6_000))
                try await F.record(
                    ledger, F.batch("proof", "P", index: 1, codeCount: 4_050), of: campaign,
                    codes: F.numberedCodes("PROOFB", 4_050))
                let recorded = try await F.codes(ledger, campaign: "proof", offer: "P").map(\.code)

                try await F.withTemporaryFolder { folder in
                    let children = ProofChildren(folder: folder)
                    defer { children.stopAll() }
                    var logs: [String] = []
                    func startWorker(_ share: Int, run: Int, startAt: Int = 0, waitsToBeKilled: Bool = false) throws
                        -> ProofChildren.Child
                    {
                        let log = folder.appendingPathComponent("claims-\(share)-\(run).log").path
                        logs.append(log)
                        let worker = ClaimWorker(
                            ledger: locator, log: log, campaign: "proof", offer: "P", today: Self.today, share: share,
                            shares: Self.shares, recipientCount: Self.recipientCount, overlapEvery: Self.overlapEvery,
                            startAt: startAt, waitsToBeKilled: waitsToBeKilled)
                        return try children.start(
                            "worker-\(share)-\(run)", test: "proofClaimWorkerChild", environment: worker.environment())
                    }

                    let claimsStarted = Date()
                    let first = try (0..<Self.shares).map {
                        try startWorker($0, run: 0, waitsToBeKilled: Self.victims[$0] != nil)
                    }
                    // Kill each victim once it has logged that many claims, in the middle of its next
                    // one (most likely), and start another worker on the rest of its share.
                    var pending = Self.victims
                    var killed: [ProofChildren.Child] = []
                    let allKilled = try await ProofChildren.poll(upTo: Self.hangGuard) {
                        for (share, after) in pending where ClaimLog.lineCount(path: logs[share]) >= after {
                            children.kill(first[share])
                            killed.append(first[share])
                            let logged = ClaimLog(path: logs[share]).claims.count
                            _ = try startWorker(share, run: 1, startAt: max(0, logged - Self.reclaimed))
                            pending[share] = nil
                        }
                        // A victim that ended on its own failed: stop waiting for it.
                        return pending.isEmpty || pending.keys.contains { !first[$0].process.isRunning }
                    }
                    let others = children.all.filter { child in !killed.contains { $0.name == child.name } }
                    let allEnded = await ProofChildren.poll(upTo: Self.hangGuard) {
                        others.allSatisfy { !$0.process.isRunning }
                    }
                    let claimSeconds = Date().timeIntervalSince(claimsStarted)
                    await children.stopAllAndWait()
                    guard allKilled && pending.isEmpty, allEnded else {
                        Issue.record(
                            Comment(
                                rawValue: "The workers did not finish (victims not killed: \(pending.keys.sorted())):\n"
                                    + Self.outputs(children.all)))
                        return
                    }
                    for victim in killed {
                        #expect(victim.process.terminationReason == .uncaughtSignal, "\(victim.name)")
                    }
                    for child in others {
                        #expect(child.succeeded, "\(child.name):\n\(child.outputText())")
                    }

                    let logged = try await Self.check(
                        ledger, campaign: "proof", offer: "P", logs: logs, recipientCount: Self.recipientCount)
                    // Codes went out in the order recorded, none skipped, across the batch boundary.
                    var handedOut: [String] = []
                    try await ledger.forEachAssignment(campaign: "proof", offer: "P") { handedOut.append($0.code.code) }
                    Self.expectInOrder(
                        handedOut, batches: [Array(recorded.prefix(6_000)), Array(recorded.dropFirst(6_000))],
                        count: Self.recipientCount, backend: backend)

                    let status = try await ledger.status(
                        campaign: "proof", today: try #require(CalendarDate(Self.today)))
                    let batches = status.offers.first { $0.name == "P" }?.batches ?? []
                    #expect(batches.map(\.storedCodes) == [6_000, 4_050])
                    #expect(batches.map(\.assigned) == [6_000, 4_000])
                    #expect(batches.map(\.left) == [0, 50])
                    let stored = batches.map(\.storedCodes).reduce(0, +)
                    #expect(batches.map(\.assigned).reduce(0, +) == Self.recipientCount)
                    #expect(batches.map(\.left).reduce(0, +) == stored - Self.recipientCount)
                    #expect(status.usage.productionCodes == 10_050)

                    Self.report(
                        "\(backend.rawValue): \(Self.shares) processes (\(killed.count) killed with SIGKILL and "
                            + "restarted) claimed \(Self.recipientCount) codes",
                        claims: logged, seconds: claimSeconds, testSeconds: Date().timeIntervalSince(testStarted))
                }
            }
        }
    }

    // MARK: Claims while codes of the same offer are recorded and imported

    /// The offer of ``claimsRaceARecordingAndAnImportOfTheSameOffer(backend:)``: 1,000 custom codes
    /// recorded first; a one-time-use batch of 1,500 recorded without codes, whose codes a
    /// process imports while the claims run; another process records 1,000 more custom codes.
    static let supplyCampaign = F.campaign("supply", offers: ["P"])
    static let supplyImported = F.numberedCodes("SUPPLYB", 1_500)
    static let supplyRecorded = F.numberedCodes("SUPPLYC", 1_000)
    static let supplyRecipients = 3_000
    static let supplyShares = 4
    /// Set (to `import` or `record`, then a tab and the ledger's locator) in a supplier process only.
    static let supplierVariable = "OFFERKIT_PROOF_SUPPLIER"

    @Test(
        .enabled(if: F.canRerunTestBinary, "re-runs the test binary found at /proc/self/exe"),
        arguments: LedgerBackend.allCases)
    func claimsRaceARecordingAndAnImportOfTheSameOffer(backend: LedgerBackend) async throws {
        let testStarted = Date()
        try await backend.withSharedPlace { place in
            guard let locator = place.locator else {
                Issue.record("the ledger cannot be named to another process")
                return
            }
            try await place.withLedger { ledger in
                try await F.record(
                    ledger, F.batch("supply", "P", index: 0, codeCount: 1_000), of: Self.supplyCampaign,
                    codes: F.numberedCodes("SUPPLYA", 1_000))
                try await F.record(
                    ledger, F.batch("supply", "P", kind: .oneTimeUse, index: 0, codeCount: Self.supplyImported.count),
                    of: Self.supplyCampaign, codes: [])

                try await F.withTemporaryFolder { folder in
                    let children = ProofChildren(folder: folder)
                    defer { children.stopAll() }
                    let supplied = folder.appendingPathComponent("supplied").path
                    var logs: [String] = []
                    let claimsStarted = Date()
                    let workers = try (0..<Self.supplyShares).map { share in
                        let log = folder.appendingPathComponent("claims-\(share).log").path
                        logs.append(log)
                        let worker = ClaimWorker(
                            ledger: locator, log: log, campaign: "supply", offer: "P", today: Self.today, share: share,
                            shares: Self.supplyShares, recipientCount: Self.supplyRecipients, overlapEvery: 2,
                            suppliedMarker: supplied)
                        return try children.start(
                            "worker-\(share)", test: "proofClaimWorkerChild", environment: worker.environment())
                    }
                    // The suppliers start once the claims are under way.
                    let underWay = await ProofChildren.poll(upTo: Self.hangGuard) {
                        logs.map { ClaimLog.lineCount(path: $0) }.reduce(0, +) >= 300
                            || workers.contains { !$0.process.isRunning }
                    }
                    let suppliers = try ["import", "record"].map {
                        try children.start(
                            "supplier-\($0)", test: "proofSupplierChild",
                            environment: [Self.supplierVariable: $0 + "\t" + locator])
                    }
                    let suppliersEnded = await ProofChildren.poll(upTo: Self.hangGuard) {
                        suppliers.allSatisfy { !$0.process.isRunning }
                    }
                    _ = FileManager.default.createFile(atPath: supplied, contents: nil)
                    let workersEnded = await ProofChildren.poll(upTo: Self.hangGuard) {
                        workers.allSatisfy { !$0.process.isRunning }
                    }
                    let claimSeconds = Date().timeIntervalSince(claimsStarted)
                    await children.stopAllAndWait()
                    guard underWay, suppliersEnded, workersEnded else {
                        Issue.record(Comment(rawValue: "The processes did not finish:\n" + Self.outputs(children.all)))
                        return
                    }
                    for child in children.all {
                        #expect(child.succeeded, "\(child.name):\n\(child.outputText())")
                    }

                    let logged = try await Self.check(
                        ledger, campaign: "supply", offer: "P", logs: logs, recipientCount: Self.supplyRecipients)
                    // Every code of each batch went out in order, none skipped: the first batch's all
                    // (it comes first), then the others' as they arrived.
                    var handedOut = Set<String>()
                    try await ledger.forEachAssignment(campaign: "supply", offer: "P") {
                        handedOut.insert($0.code.code)
                    }
                    let codes = try await F.codes(ledger, campaign: "supply", offer: "P")
                    #expect(codes.count == 3_500, "the import and the recording were kept whole")
                    var perBatch: [Int] = []
                    for batch in [(LedgerBatch.Kind.custom, 0), (.oneTimeUse, 0), (.custom, 1)] {
                        let ofBatch = codes.filter { $0.kind == batch.0 && $0.batchIndex == batch.1 }.map(\.code)
                        let taken = ofBatch.filter(handedOut.contains)
                        Self.expectInOrder(taken, batches: [ofBatch], count: taken.count, backend: backend)
                        perBatch.append(taken.count)
                    }
                    #expect(perBatch.first == 1_000)
                    #expect(perBatch.reduce(0, +) == Self.supplyRecipients)

                    let status = try await ledger.status(
                        campaign: "supply", today: try #require(CalendarDate(Self.today)))
                    let batches = status.offers.first { $0.name == "P" }?.batches ?? []
                    #expect(batches.map(\.storedCodes) == [1_000, 1_500, 1_000])
                    #expect(batches.map(\.assigned) == perBatch)
                    #expect(batches.map(\.left).reduce(0, +) == 3_500 - Self.supplyRecipients)

                    Self.report(
                        "\(backend.rawValue): \(Self.supplyShares) processes claimed \(Self.supplyRecipients) codes "
                            + "while one imported and one recorded codes of the offer",
                        claims: logged, seconds: claimSeconds, testSeconds: Date().timeIntervalSince(testStarted))
                }
            }
        }
    }

    // MARK: Checks

    /// Checks the ledger's assignments of the offer against the workers' logs; returns how many
    /// claims the logs hold.
    ///
    /// - Every recipient holds exactly one code (of the claim channel, personal), and no code has
    ///   two recipients.
    /// - Every code a worker was told is the code the ledger holds for that recipient (a repeated
    ///   claim, in any process, returns the same code), and at most one claim of each recipient
    ///   said it assigned the code.
    /// - Every recipient was claimed by some worker, and no log holds an error.
    static func check(
        _ ledger: CodeLedger, campaign: String, offer: String, logs: [String], recipientCount: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Int {
        var held: [String: String] = [:]
        var rows = 0
        var otherRows: [String] = []
        try await ledger.forEachAssignment(campaign: campaign, offer: offer) { assignment in
            rows += 1
            held[assignment.recipient] = assignment.code.code
            if assignment.channel != .claim || assignment.isShared || assignment.isNew {
                otherRows.append("\(assignment)")
            }
        }
        let everyone = Set((0..<recipientCount).map(ClaimWorker.recipient))
        #expect(rows == recipientCount, sourceLocation: sourceLocation)
        #expect(Set(held.keys) == everyone, "every recipient holds a code", sourceLocation: sourceLocation)
        #expect(held.count == rows, "no recipient holds two codes", sourceLocation: sourceLocation)
        #expect(Set(held.values).count == rows, "no code has two recipients", sourceLocation: sourceLocation)
        #expect(otherRows.isEmpty, "\(otherRows.prefix(3))", sourceLocation: sourceLocation)

        var claims = 0
        var claimed = Set<String>()
        var assignedBy: [String: Int] = [:]
        var differing: [String] = []
        var problems: [String] = []
        for path in logs {
            let log = ClaimLog(path: path)
            problems += log.problems.map { "\(URL(fileURLWithPath: path).lastPathComponent): \($0)" }
            for claim in log.claims {
                claims += 1
                claimed.insert(claim.recipient)
                if claim.isNew { assignedBy[claim.recipient, default: 0] += 1 }
                if held[claim.recipient] != claim.code {
                    differing.append(
                        "\(claim.recipient) was told \(claim.code), the ledger holds \(held[claim.recipient] ?? "none")"
                    )
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(5))", sourceLocation: sourceLocation)
        #expect(differing.isEmpty, "\(differing.count): \(differing.prefix(5))", sourceLocation: sourceLocation)
        let twice = assignedBy.filter { $0.value > 1 }
        #expect(
            twice.isEmpty, "claims that each said they assigned: \(twice.prefix(5))", sourceLocation: sourceLocation)
        #expect(claimed == everyone, "every recipient was claimed", sourceLocation: sourceLocation)
        return claims
    }

    /// Checks that `handedOut` (in the order handed out) went out batch by batch in recorded order
    /// (`batches`: each batch's codes in recorded order), `count` of them, none twice.
    ///
    /// On SQLite claims run one at a time: `handedOut` is exactly the first `count` codes. On
    /// PostgreSQL claims at the same moment take the next codes of different lanes of the batch
    /// (``CodeLane``: every ``CodeLane/personalLanes``th code) and commit in any order: every code
    /// of a batch went out before any code of the next batch, and within a batch each lane went
    /// out in order from its start (a code went out only after the code one lane-width before it).
    static func expectInOrder(
        _ handedOut: [String], batches: [[String]], count: Int, backend: LedgerBackend,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard backend == .postgres else {
            #expect(handedOut == Array(batches.joined().prefix(count)), sourceLocation: sourceLocation)
            return
        }
        #expect(handedOut.count == count && Set(handedOut).count == count, sourceLocation: sourceLocation)
        var place: [String: (batch: Int, position: Int)] = [:]
        for (batch, codes) in batches.enumerated() {
            for (position, code) in codes.enumerated() { place[code] = (batch, position) }
        }
        let places = handedOut.compactMap { place[$0] }
        #expect(places.count == handedOut.count, "codes that were not recorded", sourceLocation: sourceLocation)
        let order = places.map(\.batch)
        #expect(
            order == order.sorted(), "a batch's codes went out before the previous batch's",
            sourceLocation: sourceLocation)
        if let last = order.last {
            for batch in 0..<last {
                #expect(
                    places.filter { $0.batch == batch }.count == batches[batch].count,
                    "batch \(batch) was not handed out whole before the next", sourceLocation: sourceLocation)
            }
        }
        let taken = Set(handedOut)
        let lanes = Int(CodeLane.personalLanes)
        let skipped = places.filter { $0.position >= lanes }.filter {
            !taken.contains(batches[$0.batch][$0.position - lanes])
        }
        #expect(
            skipped.isEmpty, "codes went out before their lane's previous one: \(skipped.prefix(5))",
            sourceLocation: sourceLocation)
    }

    static func outputs(_ children: [ProofChildren.Child]) -> String {
        children.map {
            "--- \($0.name) (\($0.process.terminationReason == .exit ? "exit" : "signal") "
                + "\($0.process.isRunning ? -1 : $0.process.terminationStatus)):\n\($0.outputText())"
        }.joined(separator: "\n")
    }

    /// Prints what the proof measured.
    static func report(_ what: String, claims: Int, seconds: Double, testSeconds: Double) {
        let rate = Double(claims) / max(seconds, 0.001)
        print(
            "claim proof: \(what): \(claims) claim calls in \(String(format: "%.1f", seconds)) s "
                + "(\(Int(rate)) claims/s, process starts included); the whole test took "
                + "\(String(format: "%.1f", testSeconds)) s")
    }

    // MARK: The child processes

    /// A claim worker (``ClaimWorker``); disabled in every other run.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[ClaimWorker.variable] != nil))
    func proofClaimWorkerChild() async throws {
        try await #require(try ClaimWorker.fromEnvironment()).run()
    }

    /// A supplier of ``claimsRaceARecordingAndAnImportOfTheSameOffer(backend:)``: imports the
    /// one-time-use batch's codes, or records another batch of custom codes; disabled in every
    /// other run.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[supplierVariable] != nil))
    func proofSupplierChild() async throws {
        let setting = try #require(ProcessInfo.processInfo.environment[Self.supplierVariable])
        let parts = setting.split(separator: "\t", maxSplits: 1).map(String.init)
        try #require(parts.count == 2)
        try await LedgerPlace(locator: parts[1]).withLedger { ledger in
            switch parts[0] {
            case "import":
                let attached = try await ledger.attachCodes(
                    toOneTimeUseBatch: 0, offer: "P", campaign: "supply", codes: Self.supplyImported)
                #expect(attached == .recorded)
            default:
                let recorded = try await F.record(
                    ledger, F.batch("supply", "P", index: 1, codeCount: Self.supplyRecorded.count),
                    of: Self.supplyCampaign, codes: Self.supplyRecorded)
                #expect(recorded == .recorded)
            }
        }
    }
}
