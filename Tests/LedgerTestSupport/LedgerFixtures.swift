import Foundation
import InteropSupport
import OfferCodes
import OfferLedger
import Testing

/// Campaigns, batches and helpers for the ledger tests.
enum LedgerFixtures {
    static let appAppleId = "1234567890"
    static let otherAppAppleId = "9876543210"
    static let quarter = "2027-Q1"

    /// A campaign of consumable offers named `offers`, for `appAppleId`.
    static func campaign(_ name: String, appAppleId: String = appAppleId, offers: [String]) -> Campaign {
        Campaign(
            name: name, app: CampaignApp(bundleId: "com.example.offerkit.demo", appAppleId: appAppleId),
            offers: offers.map { offer in
                OfferDefinition(
                    referenceName: offer,
                    product: ProductReference(
                        id: "6450000009", productId: "com.example.offerkit.gems100", type: .consumable),
                    paymentMode: .oneTime, customerEligibilities: [.nonSpender],
                    prices: [TerritoryPrice(territory: "USA", pricePoint: nil)])
            })
    }

    /// A batch of `campaign`'s `offer`.
    static func batch(
        _ campaign: String, _ offer: String, kind: LedgerBatch.Kind = .custom, index: Int = 0,
        quarter: String = quarter, redemptionLimit: Int = 1, codeCount: Int, expirationDate: String? = "2027-05-31",
        environment: CodeEnvironment = .production
    ) -> LedgerBatch {
        LedgerBatch(
            campaign: campaign, offer: offer, kind: kind, index: index, quarter: quarter,
            redemptionLimit: redemptionLimit, codeCount: codeCount,
            expirationDate: expirationDate.flatMap(CalendarDate.init),
            environment: environment)
    }

    /// Records `batch` with `codes` (given codes; none: a one-time-use batch before its import).
    @discardableResult
    static func record(_ ledger: CodeLedger, _ batch: LedgerBatch, of campaign: Campaign, codes: [String])
        async throws -> BatchRecording
    {
        try await ledger.recordBatch(batch, campaign: campaign, codes: codes.isEmpty ? .none : .given(codes))
    }

    /// Every code of a campaign (or of one offer), as `forEachCode` streams them.
    static func codes(_ ledger: CodeLedger, campaign: String, offer: String? = nil) async throws -> [IssuedCode] {
        var codes: [IssuedCode] = []
        try await ledger.forEachCode(campaign: campaign, offer: offer) { codes.append($0) }
        return codes
    }

    /// The codes handed out to `recipients` in `scope`, in order (`nil`: none).
    static func held(_ ledger: CodeLedger, _ recipients: [String], scope: AssignmentScope) async throws
        -> [CodeAssignment?]
    {
        var found: [CodeAssignment?] = []
        try await ledger.lookUpAssignments(recipients: recipients, scope: scope) { found.append($1) }
        return found
    }

    /// Every assignment of a campaign (or of one offer), in the order recorded.
    static func assignments(_ ledger: CodeLedger, campaign: String, offer: String? = nil) async throws
        -> [CodeAssignment]
    {
        var all: [CodeAssignment] = []
        try await ledger.forEachAssignment(campaign: campaign, offer: offer) { all.append($0) }
        return all
    }

    /// `count` distinct codes, `prefix` followed by a number.
    static func numberedCodes(_ prefix: String, _ count: Int, from start: Int = 0) -> [String] {
        (start..<start + count).map { "\(prefix)\($0)" }
    }

    /// Campaign "winter" with offers W and S: personal codes W0…W3 of offer W and one code
    /// SHARED of offer S for up to 5 recipients, recorded in `ledger`.
    static func recordWinterPersonalAndShared(_ ledger: CodeLedger) async throws {
        let winter = campaign("winter", offers: ["W", "S"])
        try await record(ledger, batch("winter", "W", codeCount: 4), of: winter, codes: numberedCodes("W", 4))
        try await record(ledger, batch("winter", "S", redemptionLimit: 5, codeCount: 1), of: winter, codes: ["SHARED"])
    }

    /// A fresh folder under the temporary directory; `body` runs with it, then it is removed.
    static func withTemporaryFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("offerkit-ledger-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    /// An error that interrupts a child process's work.
    struct Interrupted: Error, Equatable {}

    // MARK: The crash test's child process

    /// Set (to the ledger file's path) in the child process of the crash test only.
    static let crashChildVariable = "OFFERKIT_LEDGER_CRASH_CHILD"
    /// The child writes its marker file once this many codes are in its transaction.
    static let crashMarkerAfter = 20_000
    static let crashCampaign = campaign("crash", offers: ["C"])
    /// Room for the test's 1,000 committed codes within Apple's 1,000,000 per quarter, which
    /// `recordBatch` enforces; the child inserts codes until it is killed, whatever the count says.
    static let crashBatch = batch("crash", "C", codeCount: 999_000)

    /// The `n`th code the child inserts.
    static func crashCode(_ n: Int) -> String { "CRASH\(n)" }

    /// The file the child creates when it is deep in its transaction.
    static func crashMarker(_ ledgerPath: String) -> String { ledgerPath + ".marker" }

    /// Whether the running test binary can be started again (Linux: `/proc/self/exe`).
    static let canRerunTestBinary = ChildProcess.canRerunTestBinary

    /// A child process and its output.
    struct CrashChild {
        /// The child, awaited without holding a thread (``ChildProcess``).
        let process: ChildProcess

        /// What the child wrote to stdout and stderr.
        func output() -> String { process.stdout }
    }

    /// Starts this test binary again, running only the crash child test, for `ledgerPath`.
    static func startCrashChild(ledgerPath: String) throws -> CrashChild {
        try startChild(test: "crashChildRecordsUntilKilled", environment: [crashChildVariable: ledgerPath])
    }

    /// Starts this test binary again, running only the test (function) named `test`, with
    /// `environment` added to this process's; its stdout and stderr go to one file.
    static func startChild(test: String, environment: [String: String]) throws -> CrashChild {
        CrashChild(process: try ChildProcess.testBinary(running: test, environment: environment))
    }
}
