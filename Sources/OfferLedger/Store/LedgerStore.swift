import Foundation
import OfferCodes

/// Where a ``CodeLedger`` keeps its rows: the SQL a backend cannot share with another.
///
/// The ledger decides (what a claim hands out, the limits, the checks, the status arithmetic,
/// how rows decode); a store runs transactions and the statements of ``LedgerTransaction``,
/// answering with raw values (``LedgerValue``) that the ledger checks. The SQLite store
/// (``SQLiteLedgerStore``) and the PostgreSQL store (`OfferLedgerPostgres`) implement it.
package protocol LedgerStore: Sendable {
    /// The ledger as messages name it: the file's path, `:memory:`, or a URL without its password.
    var name: String { get }

    /// Runs `body` in one read transaction: every statement sees the ledger as of one commit,
    /// and the transaction takes no lock that holds up a writer for long.
    func read<T>(_ operation: String, _ body: (any LedgerTransaction) async throws -> T) async throws -> T

    /// Runs `body` in one write transaction that holds `lock` from its first statement: it
    /// commits when `body` returns and rolls back when anything throws (or the process dies).
    /// Store failures become ``LedgerError``; other errors pass unchanged.
    func write<T>(_ lock: LedgerLock, _ operation: String, _ body: (any LedgerTransaction) async throws -> T)
        async throws -> T

    /// Where the store's write transactions run, when they all run on one executor (SQLite's
    /// write connection); `nil` otherwise. See ``CodeLedger/writeExecutor``.
    var writeExecutor: (any TaskExecutor)? { get }

    /// One claim, in one short transaction of its own (see ``ClaimRequest``).
    func claim(_ request: ClaimRequest) async throws -> ClaimOutcome

    /// Runs the backend's own checks of its files or indexes (SQLite's `PRAGMA quick_check`, or
    /// with `thorough` `integrity_check`). Returns `false` when the backend has no check of the
    /// index that keeps codes unique, so that the ledger reads every code instead.
    func checkIntegrity(thorough: Bool) async throws -> Bool

    /// Takes the lock of `codes apply` runs on `campaign` without waiting (see ``ConnectRunLock``).
    func lockConnectRun(campaign: String) async throws -> ConnectRunLock

    /// Closes the store's connections once the ledger is no longer used (SQLite: the last
    /// connection to the file folds the write-ahead log into it and removes `-wal` and `-shm`);
    /// PostgreSQL's end with the block that opened the ledger.
    func closeConnections() async throws

    /// Runs SQL as it is, holding the write lock: only for the tests that damage a ledger on purpose.
    func executeUnchecked(_ sql: String) async throws
}

/// The lock a write transaction takes first.
package enum LedgerLock: Sendable, Equatable {
    /// The ledger's write lock: recording batches and codes, switching offers, App Store Connect
    /// resources, copies (SQLite: the file's lock; PostgreSQL: an advisory lock of the schema).
    case ledger
    /// Handing out codes of one offer in bulk (`export --recipients`): SQLite's file lock;
    /// PostgreSQL: the offer's advisory lock, then its code lanes (``LedgerTransaction/lanes(batchIds:lock:)``).
    case offer(campaign: String, offer: String)
}

/// Which batch rows ``LedgerTransaction/batchRows(_:)`` reads.
package enum BatchSelection: Sendable, Equatable {
    /// Every batch of the ledger: reading them all checks every row, so that a damaged campaign
    /// name or quarter cannot make a batch silently drop out of a selection.
    case all
    /// The batches of one offer of one campaign: what a claim needs, and no more.
    case offer(campaign: String, offer: String)
}

/// The statements of one transaction of a ``LedgerStore``. Rows come back as the stores read
/// them (``LedgerValue``), in the column order each method names; the ledger decodes and checks
/// them (``StoredRow``).
package protocol LedgerTransaction {
    // MARK: Campaigns, offers, batches

    /// `batches` rows (``StoredBatch/columns``), in the order recorded (`id`).
    func batchRows(_ selection: BatchSelection) async throws -> [[LedgerValue]]
    /// `id, recorded_at` of every batch (the time as text, ``LedgerRow/Timestamp``).
    func batchTimes() async throws -> [[LedgerValue]]
    /// `app_id, app_apple_id, bundle_id` of the campaign's app (and its bundle ID), or `nil` when the campaign is not recorded.
    func campaignApp(_ campaign: String) async throws -> [LedgerValue]?
    /// `recorded_at` of the campaign (as text, ``LedgerRow/Timestamp``), or `nil` when it is not recorded.
    func campaignRecordedAt(_ campaign: String) async throws -> [LedgerValue]?
    /// The names of the app's campaigns.
    func appCampaigns(appAppleId: String) async throws -> [[LedgerValue]]
    /// The names of the app's active offers outside `excludingCampaign`, in the order their
    /// campaigns and offers were first recorded.
    func activeOfferNames(appAppleId: String, excludingCampaign: String) async throws -> [[LedgerValue]]
    /// `name, active, revision` of the campaign's offers, in the order first recorded.
    func offerRows(campaign: String) async throws -> [[LedgerValue]]
    /// `active, revision, app_apple_id` of one offer, or `nil` when it is not recorded.
    func offerState(campaign: String, offer: String) async throws -> [LedgerValue]?
    /// Which of `keys` (upper-cased codes) campaigns of the app other than `excludingCampaign` issued.
    func issuedCodeKeys(appAppleId: String, keys: [String], excludingCampaign: String) async throws -> [[LedgerValue]]

    // MARK: Codes

    /// `seq, code, digest` of the batch's codes from `seq` on, in `seq` order, at most `limit`.
    func codeRows(batchId: Int64, fromSeq: Int64, limit: Int) async throws -> [[LedgerValue]]
    /// How many `codes` rows the batch has.
    func codeRowCount(batchId: Int64) async throws -> Int64

    // MARK: Assignments and lanes

    /// `recipient, batch_id, seq, code, digest, channel, assigned_at` of the codes these
    /// (distinct) recipients hold in the scope.
    func heldAssignments(recipients: [String], scope: AssignmentScope) async throws -> [[LedgerValue]]
    /// `id, recipient, batch_id, seq, code, digest, channel, assigned_at` of the campaign's
    /// assignments (of one offer, when given) after `afterId`, in `id` order, at most `limit`.
    func assignmentRows(campaign: String, offer: String?, afterId: Int64, limit: Int) async throws
        -> [[LedgerValue]]
    /// `batch_id, shared, count` of the campaign's assignments.
    func assignmentCounts(campaign: String) async throws -> [[LedgerValue]]
    /// The code lanes of these batches (``CodeLane/columns``); with `lock`, locked until the
    /// transaction ends (PostgreSQL: `FOR UPDATE`, waiting for claims in flight).
    func lanes(batchIds: [Int64], lock: Bool) async throws -> [[LedgerValue]]
    /// The ids of the batches that have code lanes.
    func batchesWithLanes() async throws -> [[LedgerValue]]
    /// `lane, count` of the batch's assignments by lane: with `personalLanes`, the personal ones
    /// by their position modulo it; without, the shared ones by their position.
    func laneCounts(batchId: Int64, personalLanes: Int64?) async throws -> [[LedgerValue]]

    // MARK: App Store Connect resources

    /// The columns ``LedgerRow/ConnectResource/init(_:path:)`` decodes, of the campaign's
    /// resources in `id` order; of one resource when it is given (its offer kind, offer, kind and key).
    func connectResourceRows(campaign: String, resource: ConnectResourceKey?) async throws -> [[LedgerValue]]
    /// `bundle_id, key, offer` (the campaign's bundle ID, product ID, offer identifier) of every
    /// promotional offer recorded as created, of every campaign, in the order recorded.
    func createdPromotionalOfferRows() async throws -> [[LedgerValue]]
    /// The App Store Connect ids recorded as created, of every campaign, for these kinds.
    func createdConnectIds(kinds: [String]) async throws -> [[LedgerValue]]

    // MARK: Price points

    /// The columns ``LedgerRow/PricePoint/init(_:path:)`` decodes, of the campaign's resolved
    /// customer prices, in `id` order.
    func pricePointRows(campaign: String) async throws -> [[LedgerValue]]

    // MARK: Writing

    /// Records the campaign's app (if new), the campaign (or updates its bundle ID) and its offers
    /// (new ones active; recorded ones keep their switch); returns the app's row id.
    func upsertCampaign(_ campaign: Campaign) async throws -> Int64
    /// How many offers the campaign has recorded.
    func offerCount(campaign: String) async throws -> Int
    /// How many of the app's offers are active, in every campaign.
    func activeOfferCount(appAppleId: String) async throws -> Int
    /// Inserts a batch row (no codes yet); returns its id.
    func insertBatch(_ batch: LedgerBatch) async throws -> Int64
    /// `code_key` of those of `keys` the app's codes already hold, in any campaign (the write
    /// lock is held).
    func takenCodeKeys(appId: Int64, keys: [String]) async throws -> [[LedgerValue]]
    /// Inserts codes of a batch; none is taken (the caller checked, under the write lock).
    func insertCodes(_ codes: [NewCode], batchId: Int64, appId: Int64) async throws
    /// Stores a batch's code count and digests, after its codes were inserted.
    func sealBatch(id: Int64, storedCodes: Int, codesDigest: [UInt8], checksum: [UInt8]) async throws
    func insertLanes(_ lanes: [CodeLane]) async throws
    /// Removes the lanes of these batches (before they are built again).
    func deleteLanes(batchIds: [Int64]) async throws
    /// Stores the lanes' `taken`.
    func updateLanes(_ lanes: [CodeLane]) async throws
    /// Marks the offer's batches as changed, so that claims that read them earlier read them again.
    func bumpRevision(campaign: String, offer: String) async throws
    func setOfferActive(_ active: Bool, campaign: String, offer: String) async throws
    func insertAssignments(_ assignments: [NewAssignment], scope: AssignmentScope) async throws
    /// Inserts the resource, or replaces the record of the same campaign, offer, kind and key.
    func upsertConnectResource(_ resource: ConnectResource) async throws
    /// Inserts a resolved customer price, unless the campaign has one for the same product,
    /// territory and customer price (which is kept).
    func insertPricePoint(_ price: ResolvedPrice, campaign: String) async throws

    // MARK: Copying a whole ledger

    /// The rows of a table as a copy reads them (``LedgerRow``'s `columns` of the table), after
    /// `afterKey` in the order of the first column, at most `limit`.
    func copyRows(_ table: LedgerTable, afterKey: Int64, limit: Int) async throws -> [[LedgerValue]]
    /// `seq, app_id, code_key, code, digest` of the batch's codes after `afterSeq`, at most `limit`.
    func copyCodeRows(batchId: Int64, afterSeq: Int64, limit: Int) async throws -> [[LedgerValue]]
    /// Inserts copied rows as given (ids included).
    func load(_ rows: LedgerRows) async throws
    /// Ends a copy: numbering continues after the ids loaded, and the code lanes are built from
    /// the assignments.
    func finishLoad() async throws
    /// How many rows each table holds (codes per batch).
    func rowCounts() async throws -> LedgerRow.Counts
}

/// What identifies an App Store Connect resource within its campaign (the raw values of
/// ``ConnectResource``'s `offerKind`, `offer`, `kind` and `key`).
package struct ConnectResourceKey: Sendable {
    package let offerKind: String
    package let offer: String
    package let kind: String
    package let key: String

    package init(_ resource: ConnectResource) {
        offerKind = resource.offerKind.rawValue
        offer = resource.offer
        kind = resource.kind.rawValue
        key = resource.key
    }
}

/// The tables a copy reads row by row (batches and codes have their own reads).
package enum LedgerTable: String, Sendable, CaseIterable {
    case apps, campaigns, offers, assignments
    case connectResources = "connect_resources"
    case pricePoints = "price_points"
}

/// Rows a copy loads into a table.
package enum LedgerRows: Sendable {
    case apps([LedgerRow.App])
    case campaigns([LedgerRow.Campaign])
    case offers([LedgerRow.Offer])
    case batches([LedgerRow.Batch])
    case codes([LedgerRow.Code], batch: LedgerRow.Batch)
    case assignments([LedgerRow.Assignment])
    case connectResources([LedgerRow.ConnectResource])
    case pricePoints([LedgerRow.PricePoint])

    /// What failed to load, as an operation names it: `write the copied assignments`.
    package var operation: String {
        let what =
            switch self {
            case .apps: "apps"
            case .campaigns: "campaigns"
            case .offers: "offers"
            case .batches: "batches"
            case .codes: "codes"
            case .assignments: "assignments"
            case .connectResources: "App Store Connect resources"
            case .pricePoints: "price points"
            }
        return "write the copied " + what
    }
}

/// A code for a store to insert: its position, its key (upper-cased), the code as issued when it
/// differs from the key, and its digest (``CodeDigest``).
package struct NewCode: Sendable {
    package let seq: Int64
    package let key: String
    package let original: String?
    package let digest: [UInt8]

    /// The code as issued.
    package var code: String { original ?? key }

    /// The code as the ledger compares it: upper-cased. `isCode` tells that the key is `code`
    /// itself (no copy is made then), the case of every code OfferKit accepts.
    package static func key(_ code: String) -> (text: String, isCode: Bool) {
        for byte in code.utf8 where byte >= UInt8(ascii: "a") {
            if byte <= UInt8(ascii: "z") || byte >= 0x80 { return (code.uppercased(), false) }
        }
        return (code, true)
    }
}

/// An assignment for a store to insert.
package struct NewAssignment: Sendable {
    package let recipient: String
    package let batchId: Int64
    package let seq: Int64
    package let shared: Bool
    package let channel: AssignmentChannel
    package let assignedAt: Date
}
