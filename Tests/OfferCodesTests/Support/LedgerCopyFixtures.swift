import Foundation
import OfferCodes
import Testing

@testable import LedgerTestSupport
@testable import OfferLedger

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
    /// (so that their ids interleave), in every state (see ``recordConnectResources(_:)``); price
    /// points of both campaigns, recorded in turns.
    static func fill(_ ledger: CodeLedger) async throws {
        try await F.record(
            ledger, F.batch("spring", "Half", codeCount: 30), of: spring, codes: F.numberedCodes("HALF", 30))
        try await F.record(
            ledger, F.batch("spring", "Gems", redemptionLimit: 3, codeCount: 2, expirationDate: nil), of: spring,
            codes: ["gemsForAll", "GEMS2"])
        try await ledger.recordBatch(
            F.batch("spring", "Apple", kind: .oneTimeUse, codeCount: 5), campaign: spring, codes: .none)
        try await ledger.attachCodes(
            toOneTimeUseBatch: 0, offer: "Apple", campaign: "spring", codes: F.numberedCodes("APL", 5))
        try await ledger.recordBatch(
            F.batch("spring", "Apple", kind: .oneTimeUse, index: 1, codeCount: 7), campaign: spring, codes: .none)
        try await F.record(
            ledger, F.batch("spring", "Sandbox", codeCount: 4, environment: .sandbox), of: spring,
            codes: F.numberedCodes("SBX", 4))
        try await F.record(
            ledger, F.batch("autumn", "Fall", codeCount: 3), of: autumn, codes: ["FALL1", "fall2", "FÄLL3"])

        try await ledger.assign(recipients: ["ann", "bob", "cat"], scope: scope("spring", "Half"), channel: .export)
        _ = try await ledger.claim(recipient: "dan", scope: scope("spring", "Half"))
        try await ledger.assign(
            recipients: ["ann", "bob", "cat", "dan"], scope: scope("spring", "Gems"), channel: .export)
        _ = try await ledger.claim(recipient: "eve", scope: scope("spring", "Apple"))
        try await ledger.assign(recipients: ["tester"], scope: scope("spring", "Sandbox", .sandbox), channel: .export)
        _ = try await ledger.claim(recipient: "zoë ✓", scope: scope("autumn", "Fall"))
        try await ledger.setOfferActive(false, offer: "Sandbox", campaign: "spring")
        try await recordConnectResources(ledger)
        func price(_ product: PricePointQuery.Product, _ territory: String, _ customerPrice: String) -> ResolvedPrice {
            ResolvedPrice(
                query: PricePointQuery(product: product, territory: territory), customerPrice: customerPrice,
                pricePoint: "pp-\(product.id)-\(territory)-\(customerPrice)")
        }
        _ = try await ledger.recordPricePoints(
            [
                price(.subscription(id: "6450000001"), "USA", "4.99"),
                price(.subscription(id: "6450000001"), "JPN", "480"),
            ],
            campaign: "spring")
        _ = try await ledger.recordPricePoints(
            [price(.inAppPurchase(id: "6450000009"), "GBR", "0.5")], campaign: "autumn")
        _ = try await ledger.recordPricePoints(
            [price(.inAppPurchase(id: "6450000009"), "USA", "1.99")], campaign: "spring")
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
    static func recordConnectResources(_ ledger: CodeLedger) async throws {
        let half = resource("spring", "Half", .offer, request: "offer-1", type: "subscriptionOfferCodes")
        let halfCode = resource(
            "spring", "Half", .customCode, key: "HALF0", request: "offer-1-custom-code-1",
            type: "subscriptionOfferCodeCustomCodes")
        let gems = resource("spring", "Gems", .offer, request: "offer-2", type: "inAppPurchaseOfferCodes")
        let apple = resource("spring", "Apple", .offer, request: "offer-3", type: "subscriptionOfferCodes")
        try await ledger.recordConnectResources([half, halfCode, gems, apple])
        let fall = resource("autumn", "Fall", .offer, request: "offer-1", type: "subscriptionOfferCodes")
        let fallCode = resource(
            "autumn", "Fall", .customCode, key: ConnectResource.key(kind: .customCode, code: "fÄll3"),
            request: "offer-1-custom-code-3", type: "subscriptionOfferCodeCustomCodes")
        try await ledger.recordConnectResources([fall, fallCode])
        let appleBatch = resource(
            "spring", "Apple", .oneTimeUse, key: ConnectResource.key(kind: .oneTimeUse, batchIndex: 1),
            request: "offer-3-one-time-use-2", type: "subscriptionOfferCodeOneTimeUseCodes")
        try await ledger.recordConnectResources([appleBatch])
        // A promotional offer has no offers row: it is the campaign's, identified by its offer identifier.
        let comeback = ConnectResource(
            campaign: "spring", offerKind: .promotionalOffer, offer: "comeback_3", kind: .offer,
            key: "com.example.monthly",
            requestId: "promotional-offer-1", resourceType: "subscriptionPromotionalOffers", state: .planned,
            bodyDigest: digest("7f"), updatedAt: time(0))
        try await ledger.recordConnectResources([comeback])
        try await ledger.recordConnectResources([
            half.with(state: .sent, at: time(1)), halfCode.with(state: .sent, at: time(1)),
            gems.with(state: .sent, at: time(1)), apple.with(state: .sent, at: time(1)),
            fall.with(state: .sent, at: time(2)), fallCode.with(state: .sent, at: time(2)),
            appleBatch.with(state: .sent, at: time(3)),
        ])
        try await ledger.recordConnectResources([
            half.with(state: .created, id: "6744210001", at: time(1.001)),
            halfCode.with(
                state: .failed, error: "409 ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE\nThe code “HALF0” is taken.",
                at: time(1.5)),
            gems.with(state: .sent, error: "the request timed out after 30 s; look it up first", at: time(1.75)),
            fall.with(state: .created, id: "6744210002", at: time(2.25)),
            fallCode.with(state: .created, id: "6744210003", at: time(2.5)),
            appleBatch.with(state: .created, id: "b2c3d4e5-0000-4000-8000-00000000000a", at: time(3.999)),
            comeback.with(state: .created, id: "6744210004", at: time(4)),
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

        init(_ ledger: CodeLedger) async throws {
            for campaign in ["spring", "autumn"] {
                batches[campaign] = try await ledger.batches(campaign: campaign)
                codes[campaign] = try await F.codes(ledger, campaign: campaign)
                var list: [String] = []
                try await ledger.forEachAssignment(campaign: campaign, offer: nil) { assignment in
                    list.append(
                        "\(assignment.recipient) \(assignment.code.code) \(assignment.code.offer) "
                            + "\(assignment.channel) \((assignment.assignedAt.timeIntervalSince1970 * 1000).rounded())")
                }
                assignments[campaign] = list
                status[campaign] = try await ledger.status(campaign: campaign, today: today)
                connectResources[campaign] = try await ledger.connectResources(campaign: campaign)
            }
            for app in [F.appAppleId, F.otherAppAppleId] {
                summaries.append(try await ledger.summary(appAppleId: app, quarter: F.quarter, excludingCampaign: ""))
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
        var pricePoints: [LedgerRow.PricePoint] = []

        init(_ ledger: CodeLedger) async throws {
            try await ledger.streamSnapshot(into: self)
        }

        func apps(_ rows: [LedgerRow.App]) async throws { apps += rows }
        func campaigns(_ rows: [LedgerRow.Campaign]) async throws { campaigns += rows }
        func offers(_ rows: [LedgerRow.Offer]) async throws { offers += rows }
        func batches(_ rows: [LedgerRow.Batch]) async throws { batches += rows }
        func codes(_ chunk: [LedgerRow.Code], of batch: LedgerRow.Batch) async throws {
            codes[batch.id, default: []] += chunk
        }
        func assignments(_ chunk: [LedgerRow.Assignment]) async throws { assignments += chunk }
        func connectResources(_ chunk: [LedgerRow.ConnectResource]) async throws { connectResources += chunk }
        func pricePoints(_ chunk: [LedgerRow.PricePoint]) async throws { pricePoints += chunk }

        var isEmpty: Bool {
            apps.isEmpty && campaigns.isEmpty && offers.isEmpty && batches.isEmpty && codes.isEmpty
                && assignments.isEmpty && connectResources.isEmpty && pricePoints.isEmpty
        }

        static func == (lhs: Rows, rhs: Rows) -> Bool {
            lhs.apps == rhs.apps && lhs.campaigns == rhs.campaigns && lhs.offers == rhs.offers
                && lhs.batches == rhs.batches && lhs.codes == rhs.codes && lhs.assignments == rhs.assignments
                && lhs.connectResources == rhs.connectResources && lhs.pricePoints == rhs.pricePoints
        }
    }

    /// A ledger whose store fails part-way through a copy: its transactions pass every statement
    /// on to `ledger`'s, and throw ``Rejected`` once `failAt` is reached.
    static func failing(_ ledger: CodeLedger, at point: FailingStore.Point) -> CodeLedger {
        CodeLedger(store: FailingStore(store: ledger.store, failAt: point), access: .readWrite)
    }

    /// A store that passes everything on to `store`, and whose write transactions throw
    /// ``Rejected`` once a copy reaches `failAt`.
    struct FailingStore: LedgerStore {
        enum Point: Sendable { case codes, assignments, connectResources, finish }
        struct Rejected: Error, Equatable {}

        let store: any LedgerStore
        let failAt: Point

        var name: String { store.name }
        var writeExecutor: (any TaskExecutor)? { store.writeExecutor }

        func read<T>(_ operation: String, _ body: (any LedgerTransaction) async throws -> T) async throws -> T {
            try await store.read(operation, body)
        }

        func write<T>(
            _ lock: LedgerLock, _ operation: String, _ body: (any LedgerTransaction) async throws -> T
        ) async throws -> T {
            try await store.write(lock, operation) { tx in try await body(FailingTransaction(tx: tx, failAt: failAt)) }
        }

        func claim(_ request: ClaimRequest) async throws -> ClaimOutcome { try await store.claim(request) }
        func checkIntegrity(thorough: Bool) async throws -> Bool { try await store.checkIntegrity(thorough: thorough) }
        func lockConnectRun(campaign: String) async throws -> ConnectRunLock {
            try await store.lockConnectRun(campaign: campaign)
        }
        func executeUnchecked(_ sql: String) async throws { try await store.executeUnchecked(sql) }
        func closeConnections() async throws { try await store.closeConnections() }
    }

    /// A transaction that passes every statement on, and throws ``FailingStore/Rejected`` after
    /// loading rows of the kind `failAt` names (codes: the second batch with codes).
    struct FailingTransaction: LedgerTransaction {
        let tx: any LedgerTransaction
        let failAt: FailingStore.Point

        func load(_ rows: LedgerRows) async throws {
            try await tx.load(rows)
            switch (rows, failAt) {
            case (.codes(_, let batch), .codes) where batch.id > 1: throw FailingStore.Rejected()
            case (.assignments, .assignments), (.connectResources, .connectResources): throw FailingStore.Rejected()
            default: break
            }
        }

        func finishLoad() async throws {
            try await tx.finishLoad()
            if failAt == .finish { throw FailingStore.Rejected() }
        }

        func batchRows(_ selection: BatchSelection) async throws -> [[LedgerValue]] {
            try await tx.batchRows(selection)
        }
        func batchTimes() async throws -> [[LedgerValue]] { try await tx.batchTimes() }
        func campaignApp(_ campaign: String) async throws -> [LedgerValue]? { try await tx.campaignApp(campaign) }
        func campaignRecordedAt(_ campaign: String) async throws -> [LedgerValue]? {
            try await tx.campaignRecordedAt(campaign)
        }
        func appCampaigns(appAppleId: String) async throws -> [[LedgerValue]] {
            try await tx.appCampaigns(appAppleId: appAppleId)
        }
        func activeOfferNames(appAppleId: String, excludingCampaign: String) async throws -> [[LedgerValue]] {
            try await tx.activeOfferNames(appAppleId: appAppleId, excludingCampaign: excludingCampaign)
        }
        func offerRows(campaign: String) async throws -> [[LedgerValue]] { try await tx.offerRows(campaign: campaign) }
        func offerState(campaign: String, offer: String) async throws -> [LedgerValue]? {
            try await tx.offerState(campaign: campaign, offer: offer)
        }
        func issuedCodeKeys(appAppleId: String, keys: [String], excludingCampaign: String) async throws
            -> [[LedgerValue]]
        {
            try await tx.issuedCodeKeys(appAppleId: appAppleId, keys: keys, excludingCampaign: excludingCampaign)
        }
        func codeRows(batchId: Int64, fromSeq: Int64, limit: Int) async throws -> [[LedgerValue]] {
            try await tx.codeRows(batchId: batchId, fromSeq: fromSeq, limit: limit)
        }
        func codeRowCount(batchId: Int64) async throws -> Int64 { try await tx.codeRowCount(batchId: batchId) }
        func heldAssignments(recipients: [String], scope: AssignmentScope) async throws -> [[LedgerValue]] {
            try await tx.heldAssignments(recipients: recipients, scope: scope)
        }
        func assignmentRows(campaign: String, offer: String?, afterId: Int64, limit: Int) async throws
            -> [[LedgerValue]]
        {
            try await tx.assignmentRows(campaign: campaign, offer: offer, afterId: afterId, limit: limit)
        }
        func assignmentCounts(campaign: String) async throws -> [[LedgerValue]] {
            try await tx.assignmentCounts(campaign: campaign)
        }
        func lanes(batchIds: [Int64], lock: Bool) async throws -> [[LedgerValue]] {
            try await tx.lanes(batchIds: batchIds, lock: lock)
        }
        func batchesWithLanes() async throws -> [[LedgerValue]] { try await tx.batchesWithLanes() }
        func laneCounts(batchId: Int64, personalLanes: Int64?) async throws -> [[LedgerValue]] {
            try await tx.laneCounts(batchId: batchId, personalLanes: personalLanes)
        }
        func connectResourceRows(campaign: String, resource: ConnectResourceKey?) async throws -> [[LedgerValue]] {
            try await tx.connectResourceRows(campaign: campaign, resource: resource)
        }
        func createdPromotionalOfferRows() async throws -> [[LedgerValue]] {
            try await tx.createdPromotionalOfferRows()
        }
        func createdConnectIds(kinds: [String]) async throws -> [[LedgerValue]] {
            try await tx.createdConnectIds(kinds: kinds)
        }
        func upsertCampaign(_ campaign: Campaign) async throws -> Int64 { try await tx.upsertCampaign(campaign) }
        func offerCount(campaign: String) async throws -> Int { try await tx.offerCount(campaign: campaign) }
        func activeOfferCount(appAppleId: String) async throws -> Int {
            try await tx.activeOfferCount(appAppleId: appAppleId)
        }
        func insertBatch(_ batch: LedgerBatch) async throws -> Int64 { try await tx.insertBatch(batch) }
        func takenCodeKeys(appId: Int64, keys: [String]) async throws -> [[LedgerValue]] {
            try await tx.takenCodeKeys(appId: appId, keys: keys)
        }
        func insertCodes(_ codes: [NewCode], batchId: Int64, appId: Int64) async throws {
            try await tx.insertCodes(codes, batchId: batchId, appId: appId)
        }
        func sealBatch(id: Int64, storedCodes: Int, codesDigest: [UInt8], checksum: [UInt8]) async throws {
            try await tx.sealBatch(id: id, storedCodes: storedCodes, codesDigest: codesDigest, checksum: checksum)
        }
        func insertLanes(_ lanes: [CodeLane]) async throws { try await tx.insertLanes(lanes) }
        func deleteLanes(batchIds: [Int64]) async throws { try await tx.deleteLanes(batchIds: batchIds) }
        func updateLanes(_ lanes: [CodeLane]) async throws { try await tx.updateLanes(lanes) }
        func bumpRevision(campaign: String, offer: String) async throws {
            try await tx.bumpRevision(campaign: campaign, offer: offer)
        }
        func setOfferActive(_ active: Bool, campaign: String, offer: String) async throws {
            try await tx.setOfferActive(active, campaign: campaign, offer: offer)
        }
        func insertAssignments(_ assignments: [NewAssignment], scope: AssignmentScope) async throws {
            try await tx.insertAssignments(assignments, scope: scope)
        }
        func upsertConnectResource(_ resource: ConnectResource) async throws {
            try await tx.upsertConnectResource(resource)
        }
        func pricePointRows(campaign: String) async throws -> [[LedgerValue]] {
            try await tx.pricePointRows(campaign: campaign)
        }
        func insertPricePoint(_ price: ResolvedPrice, campaign: String) async throws {
            try await tx.insertPricePoint(price, campaign: campaign)
        }
        func copyRows(_ table: LedgerTable, afterKey: Int64, limit: Int) async throws -> [[LedgerValue]] {
            try await tx.copyRows(table, afterKey: afterKey, limit: limit)
        }
        func copyCodeRows(batchId: Int64, afterSeq: Int64, limit: Int) async throws -> [[LedgerValue]] {
            try await tx.copyCodeRows(batchId: batchId, afterSeq: afterSeq, limit: limit)
        }
        func rowCounts() async throws -> LedgerRow.Counts { try await tx.rowCounts() }
    }
}
