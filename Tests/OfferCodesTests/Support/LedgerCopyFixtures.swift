import Foundation
import OfferCodes
import Testing

/// A ledger with something of everything for the copy tests, and what a ledger holds, read back
/// both through the ledger's API and as raw rows.
enum LedgerCopyFixtures {
    typealias F = LedgerFixtures

    static let today = CalendarDate("2027-02-01")!

    static let spring = F.campaign("spring", offers: ["Half", "Gems", "Apple", "Sandbox"])
    static let autumn = F.campaign("autumn", appAppleId: F.otherAppAppleId, offers: ["Fall"])

    static func scope(_ campaign: String, _ offer: String, _ environment: CodeEnvironment = .production)
        -> AssignmentScope
    {
        AssignmentScope(campaign: campaign, offer: offer, environment: environment, today: today)
    }

    /// Two campaigns of two apps: personal custom codes, shared custom codes (one written in
    /// lower case, no expiry), Apple's one-time-use codes (one batch imported, one not), sandbox
    /// codes, a code with a non-ASCII letter; assignments by export and claim, personal and
    /// shared; an inactive offer.
    static func fill(_ ledger: any CodeLedger) throws {
        try F.record(ledger, F.batch("spring", "Half", codeCount: 30), of: spring, codes: F.numberedCodes("HALF", 30))
        try F.record(
            ledger, F.batch("spring", "Gems", redemptionLimit: 3, codeCount: 2, expirationDate: nil), of: spring,
            codes: ["gemsForAll", "GEMS2"])
        try ledger.recordBatch(F.batch("spring", "Apple", kind: .oneTimeUse, codeCount: 5), campaign: spring) { _ in }
        try ledger.attachCodes(toOneTimeUseBatch: 0, offer: "Apple", campaign: "spring") { insert in
            for code in F.numberedCodes("APL", 5) { _ = try insert(code) }
        }
        try ledger.recordBatch(
            F.batch("spring", "Apple", kind: .oneTimeUse, index: 1, codeCount: 7), campaign: spring
        ) { _ in }
        try F.record(
            ledger, F.batch("spring", "Sandbox", codeCount: 4, environment: .sandbox), of: spring,
            codes: F.numberedCodes("SBX", 4))
        try F.record(ledger, F.batch("autumn", "Fall", codeCount: 3), of: autumn, codes: ["FALL1", "fall2", "FÄLL3"])

        try ledger.assign(recipients: ["ann", "bob", "cat"], scope: scope("spring", "Half"), channel: .export) { _ in }
        _ = try ledger.claim(recipient: "dan", scope: scope("spring", "Half"))
        try ledger.assign(recipients: ["ann", "bob", "cat", "dan"], scope: scope("spring", "Gems"), channel: .export) {
            _ in
        }
        _ = try ledger.claim(recipient: "eve", scope: scope("spring", "Apple"))
        try ledger.assign(recipients: ["tester"], scope: scope("spring", "Sandbox", .sandbox), channel: .export) { _ in
        }
        _ = try ledger.claim(recipient: "zoë ✓", scope: scope("autumn", "Fall"))
        try ledger.setOfferActive(false, offer: "Sandbox", campaign: "spring")
    }

    /// What a ledger holds as its API returns it.
    struct Contents: Equatable {
        var batches: [String: [LedgerBatch]] = [:]
        var codes: [String: [IssuedCode]] = [:]
        /// Recipient, code, offer, channel and time (in milliseconds) of each assignment.
        var assignments: [String: [String]] = [:]
        var status: [String: CampaignStatus] = [:]
        var summaries: [LedgerSummary] = []

        init(_ ledger: any CodeLedger) throws {
            for campaign in ["spring", "autumn"] {
                batches[campaign] = try ledger.batches(campaign: campaign)
                codes[campaign] = try F.codes(ledger, campaign: campaign)
                var list: [String] = []
                try ledger.forEachAssignment(campaign: campaign, offer: nil) { assignment in
                    list.append(
                        "\(assignment.recipient) \(assignment.code.code) \(assignment.code.offer) "
                            + "\(assignment.channel) \((assignment.assignedAt.timeIntervalSince1970 * 1000).rounded())")
                }
                assignments[campaign] = list
                status[campaign] = try ledger.status(campaign: campaign, today: today)
            }
            for app in [F.appAppleId, F.otherAppAppleId] {
                summaries.append(try ledger.summary(appAppleId: app, quarter: F.quarter, excludingCampaign: ""))
            }
        }
    }

    /// Every row a ledger streams for a copy, as it streams them.
    final class Rows: LedgerRowSink, Equatable {
        var apps: [LedgerRow.App] = []
        var campaigns: [LedgerRow.Campaign] = []
        var offers: [LedgerRow.Offer] = []
        var batches: [LedgerRow.Batch] = []
        var codes: [Int64: [LedgerRow.Code]] = [:]
        var assignments: [LedgerRow.Assignment] = []

        init(_ ledger: some LedgerSnapshotReader) throws {
            try ledger.streamSnapshot(into: self)
        }

        func apps(_ rows: [LedgerRow.App]) throws { apps += rows }
        func campaigns(_ rows: [LedgerRow.Campaign]) throws { campaigns += rows }
        func offers(_ rows: [LedgerRow.Offer]) throws { offers += rows }
        func batches(_ rows: [LedgerRow.Batch]) throws { batches += rows }
        func codes(_ chunk: [LedgerRow.Code], of batch: LedgerRow.Batch) throws {
            codes[batch.id, default: []] += chunk
        }
        func assignments(_ chunk: [LedgerRow.Assignment]) throws { assignments += chunk }

        var isEmpty: Bool {
            apps.isEmpty && campaigns.isEmpty && offers.isEmpty && batches.isEmpty && codes.isEmpty
                && assignments.isEmpty
        }

        static func == (lhs: Rows, rhs: Rows) -> Bool {
            lhs.apps == rhs.apps && lhs.campaigns == rhs.campaigns && lhs.offers == rhs.offers
                && lhs.batches == rhs.batches && lhs.codes == rhs.codes && lhs.assignments == rhs.assignments
        }
    }

    /// A target that fails part-way: its loader passes rows on to the real one, and throws
    /// ``Rejected`` once `failAt` is reached.
    struct FailingTarget: LedgerBulkWriter {
        enum Point { case codes, assignments, finish }
        struct Rejected: Error, Equatable {}

        let target: any LedgerBulkWriter
        let failAt: Point

        var copyName: String { target.copyName }

        func bulkLoad<T>(_ body: (any LedgerBulkLoader) throws -> T) throws -> T {
            try target.bulkLoad { loader in try body(Loader(loader: loader, failAt: failAt)) }
        }

        final class Loader: LedgerBulkLoader {
            let loader: any LedgerBulkLoader
            let failAt: Point
            init(loader: any LedgerBulkLoader, failAt: Point) {
                self.loader = loader
                self.failAt = failAt
            }
            func apps(_ rows: [LedgerRow.App]) throws { try loader.apps(rows) }
            func campaigns(_ rows: [LedgerRow.Campaign]) throws { try loader.campaigns(rows) }
            func offers(_ rows: [LedgerRow.Offer]) throws { try loader.offers(rows) }
            func batches(_ rows: [LedgerRow.Batch]) throws { try loader.batches(rows) }
            func codes(_ chunk: [LedgerRow.Code], of batch: LedgerRow.Batch) throws {
                try loader.codes(chunk, of: batch)
                // After some codes are in: the second batch with codes.
                if failAt == .codes, batch.id > 1 { throw Rejected() }
            }
            func assignments(_ chunk: [LedgerRow.Assignment]) throws {
                try loader.assignments(chunk)
                if failAt == .assignments { throw Rejected() }
            }
            func recordedRows() throws -> LedgerRow.Counts { try loader.recordedRows() }
            func finish() throws {
                try loader.finish()
                if failAt == .finish { throw Rejected() }
            }
        }
    }
}
