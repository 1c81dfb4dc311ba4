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
    /// shared; an inactive offer; App Store Connect resources of both campaigns, recorded in turns
    /// (so that their ids interleave), in every state (see ``recordConnectResources(_:)``).
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
        try recordConnectResources(ledger)
    }

    /// A body digest (64 lower-case hex digits).
    static func digest(_ byte: String) -> String { String(repeating: byte, count: 32) }

    /// A time to the millisecond, `seconds` after the first one.
    static func time(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_800_000_000.125 + seconds) }

    /// An App Store Connect resource, planned.
    static func resource(
        _ campaign: String, _ offer: String, _ kind: ConnectResource.Kind, key: String = "", request: String,
        type: String
    ) -> ConnectResource {
        ConnectResource(
            campaign: campaign, offer: offer, kind: kind, key: key, requestId: request, resourceType: type,
            state: .planned, bodyDigest: digest(String(request.count % 10) + "f"), updatedAt: time(0))
    }

    /// What `codes apply` would record, in turns: spring's offers (one created, one failed with
    /// App Store Connect's answer on two lines, one sent with an unknown outcome, one still
    /// planned), autumn's offer and a custom code with a non-ASCII letter (created), then more
    /// of spring (a one-time-use batch created).
    static func recordConnectResources(_ ledger: any CodeLedger) throws {
        let half = resource("spring", "Half", .offer, request: "offer-1", type: "subscriptionOfferCodes")
        let halfCode = resource(
            "spring", "Half", .customCode, key: "HALF0", request: "offer-1-custom-code-1",
            type: "subscriptionOfferCodeCustomCodes")
        let gems = resource("spring", "Gems", .offer, request: "offer-2", type: "inAppPurchaseOfferCodes")
        let apple = resource("spring", "Apple", .offer, request: "offer-3", type: "subscriptionOfferCodes")
        try ledger.recordConnectResources([half, halfCode, gems, apple])
        let fall = resource("autumn", "Fall", .offer, request: "offer-1", type: "subscriptionOfferCodes")
        let fallCode = resource(
            "autumn", "Fall", .customCode, key: ConnectResource.key(kind: .customCode, code: "fÄll3"),
            request: "offer-1-custom-code-3", type: "subscriptionOfferCodeCustomCodes")
        try ledger.recordConnectResources([fall, fallCode])
        let appleBatch = resource(
            "spring", "Apple", .oneTimeUse, key: ConnectResource.key(kind: .oneTimeUse, batchIndex: 1),
            request: "offer-3-one-time-use-2", type: "subscriptionOfferCodeOneTimeUseCodes")
        try ledger.recordConnectResources([appleBatch])
        try ledger.recordConnectResources([
            half.with(state: .sent, at: time(1)), halfCode.with(state: .sent, at: time(1)),
            gems.with(state: .sent, at: time(1)), apple.with(state: .sent, at: time(1)),
            fall.with(state: .sent, at: time(2)), fallCode.with(state: .sent, at: time(2)),
            appleBatch.with(state: .sent, at: time(3)),
        ])
        try ledger.recordConnectResources([
            half.with(state: .created, id: "6744210001", at: time(1.001)),
            halfCode.with(
                state: .failed, error: "409 ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE\nThe code “HALF0” is taken.",
                at: time(1.5)),
            gems.with(state: .sent, error: "the request timed out after 30 s; look it up first", at: time(1.75)),
            fall.with(state: .created, id: "6744210002", at: time(2.25)),
            fallCode.with(state: .created, id: "6744210003", at: time(2.5)),
            appleBatch.with(state: .created, id: "b2c3d4e5-0000-4000-8000-00000000000a", at: time(3.999)),
        ])
    }

    /// What a ledger holds as its API returns it.
    struct Contents: Equatable {
        var batches: [String: [LedgerBatch]] = [:]
        var codes: [String: [IssuedCode]] = [:]
        /// Recipient, code, offer, channel and time (in milliseconds) of each assignment.
        var assignments: [String: [String]] = [:]
        var status: [String: CampaignStatus] = [:]
        var summaries: [LedgerSummary] = []
        var connectResources: [String: [ConnectResource]] = [:]

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
                connectResources[campaign] = try ledger.connectResources(campaign: campaign)
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
        var connectResources: [LedgerRow.ConnectResource] = []

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
        func connectResources(_ chunk: [LedgerRow.ConnectResource]) throws { connectResources += chunk }

        var isEmpty: Bool {
            apps.isEmpty && campaigns.isEmpty && offers.isEmpty && batches.isEmpty && codes.isEmpty
                && assignments.isEmpty && connectResources.isEmpty
        }

        static func == (lhs: Rows, rhs: Rows) -> Bool {
            lhs.apps == rhs.apps && lhs.campaigns == rhs.campaigns && lhs.offers == rhs.offers
                && lhs.batches == rhs.batches && lhs.codes == rhs.codes && lhs.assignments == rhs.assignments
                && lhs.connectResources == rhs.connectResources
        }
    }

    /// A target that fails part-way: its loader passes rows on to the real one, and throws
    /// ``Rejected`` once `failAt` is reached.
    struct FailingTarget: LedgerBulkWriter {
        enum Point { case codes, assignments, connectResources, finish }
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
            func connectResources(_ chunk: [LedgerRow.ConnectResource]) throws {
                try loader.connectResources(chunk)
                if failAt == .connectResources { throw Rejected() }
            }
            func recordedRows() throws -> LedgerRow.Counts { try loader.recordedRows() }
            func finish() throws {
                try loader.finish()
                if failAt == .finish { throw Rejected() }
            }
        }
    }
}
