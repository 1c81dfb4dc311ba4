import Foundation
import GRDB
import OfferCodes

/// The statements of one SQLite transaction (``LedgerTransaction``), each run on the
/// transaction's connection (``SQLiteLedgerConnection/run(label:operation:_:)``).
final class SQLiteTransaction: LedgerTransaction {
    private let connection: SQLiteLedgerConnection
    private let path: String
    private let operation: String

    init(connection: SQLiteLedgerConnection, path: String, operation: String) {
        self.connection = connection
        self.path = path
        self.operation = operation
    }

    /// Runs `body` on the connection, inside the transaction.
    func run<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await connection.run(label: path, operation: operation, body)
    }

    private func rows(_ sql: String, _ arguments: StatementArguments = []) async throws -> [[LedgerValue]] {
        try await run { db in try SQLiteRows.all(db, sql, arguments) }
    }

    private func count(_ sql: String, _ arguments: StatementArguments = []) async throws -> Int64 {
        try await run { db in try SQLiteRows.count(db, sql, arguments) }
    }

    private func execute(_ sql: String, _ arguments: StatementArguments) async throws {
        try await run { db in try db.cachedStatement(sql: sql).execute(arguments: arguments) }
    }

    /// Runs SQL as it is (``LedgerStore/executeUnchecked(_:)``).
    func execute(_ sql: String) async throws {
        try await run { db in try db.execute(sql: sql) }
    }

    // MARK: Campaigns, offers, batches

    func batchRows(_ selection: BatchSelection) async throws -> [[LedgerValue]] {
        switch selection {
        case .all:
            return try await rows("SELECT \(StoredBatch.columns) FROM batches ORDER BY id")
        case .offer(let campaign, let offer):
            return try await rows(
                "SELECT \(StoredBatch.columns) FROM batches WHERE campaign = ? AND offer = ? ORDER BY id",
                [campaign, offer])
        }
    }

    func batchTimes() async throws -> [[LedgerValue]] {
        try await rows("SELECT id, recorded_at FROM batches")
    }

    func campaignRecordedAt(_ campaign: String) async throws -> [LedgerValue]? {
        try await rows("SELECT recorded_at FROM campaigns WHERE name = ?", [campaign]).first
    }

    func campaignApp(_ campaign: String) async throws -> [LedgerValue]? {
        try await rows(
            "SELECT c.app_id, a.app_apple_id, c.bundle_id FROM campaigns c LEFT JOIN apps a ON a.id = c.app_id "
                + "WHERE c.name = ?",
            [campaign]
        ).first
    }

    func appCampaigns(appAppleId: String) async throws -> [[LedgerValue]] {
        try await rows(
            "SELECT c.name FROM campaigns c JOIN apps a ON a.id = c.app_id WHERE a.app_apple_id = ?", [appAppleId])
    }

    func activeOfferNames(appAppleId: String, excludingCampaign: String) async throws -> [[LedgerValue]] {
        try await rows(
            """
            SELECT o.name FROM offers o JOIN campaigns c ON c.name = o.campaign JOIN apps a ON a.id = c.app_id
            WHERE a.app_apple_id = ? AND c.name <> ? AND o.active = 1
            ORDER BY c.rowid, o.rowid
            """, [appAppleId, excludingCampaign])
    }

    func offerRows(campaign: String) async throws -> [[LedgerValue]] {
        try await rows("SELECT name, active, revision FROM offers WHERE campaign = ? ORDER BY rowid", [campaign])
    }

    func offerState(campaign: String, offer: String) async throws -> [LedgerValue]? {
        try await rows(
            """
            SELECT o.active, o.revision, a.app_apple_id FROM offers o
            LEFT JOIN campaigns c ON c.name = o.campaign LEFT JOIN apps a ON a.id = c.app_id
            WHERE o.campaign = ? AND o.name = ?
            """, [campaign, offer]
        ).first
    }

    func issuedCodeKeys(appAppleId: String, keys: [String], excludingCampaign: String) async throws -> [[LedgerValue]] {
        try await run { db in
            guard
                let appId = try Int64.fetchOne(
                    db, sql: "SELECT id FROM apps WHERE app_apple_id = ?", arguments: [appAppleId])
            else { return [] }
            let statement = try db.cachedStatement(
                sql: """
                    SELECT c.code_key FROM codes c JOIN batches b ON b.id = c.batch_id
                    WHERE c.app_id = ? AND c.code_key = ? AND b.campaign <> ? LIMIT 1
                    """)
            var found: [[LedgerValue]] = []
            for key in keys {
                if let row = try SQLiteRows.one(db, statement, [appId, key, excludingCampaign]) { found.append(row) }
            }
            return found
        }
    }

    // MARK: Codes

    func codeRows(batchId: Int64, fromSeq: Int64, limit: Int) async throws -> [[LedgerValue]] {
        try await rows(
            "SELECT seq, COALESCE(code, code_key), digest FROM codes WHERE batch_id = ? AND seq >= ? ORDER BY seq LIMIT ?",
            [batchId, fromSeq, limit])
    }

    func codeRowCount(batchId: Int64) async throws -> Int64 {
        try await count("SELECT COUNT(*) FROM codes WHERE batch_id = ?", [batchId])
    }

    // MARK: Assignments and lanes

    func heldAssignments(recipients: [String], scope: AssignmentScope) async throws -> [[LedgerValue]] {
        try await run { db in
            let statement = try db.cachedStatement(sql: SQLiteClaim.heldSQL)
            var found: [[LedgerValue]] = []
            for recipient in recipients {
                let arguments: StatementArguments = [
                    scope.campaign, scope.offer, scope.environment.rawValue, recipient,
                ]
                if let row = try SQLiteRows.one(db, statement, arguments) { found.append(row) }
            }
            return found
        }
    }

    func assignmentRows(campaign: String, offer: String?, afterId: Int64, limit: Int) async throws -> [[LedgerValue]] {
        try await rows(
            """
            SELECT a.id, a.recipient, a.batch_id, a.seq, COALESCE(c.code, c.code_key), c.digest, a.channel, a.assigned_at
            FROM assignments a JOIN codes c ON c.batch_id = a.batch_id AND c.seq = a.seq
            WHERE a.campaign = ? AND (? IS NULL OR a.offer = ?) AND a.id > ? ORDER BY a.id LIMIT ?
            """, [campaign, offer, offer, afterId, limit])
    }

    func assignmentCounts(campaign: String) async throws -> [[LedgerValue]] {
        try await rows(
            "SELECT batch_id, shared, COUNT(*) FROM assignments WHERE campaign = ? GROUP BY batch_id, shared",
            [campaign])
    }

    func lanes(batchIds: [Int64], lock: Bool) async throws -> [[LedgerValue]] {
        // The transaction holds the file's write lock already when it writes.
        try await run { db in
            var all: [[LedgerValue]] = []
            for batchId in batchIds {
                all += try SQLiteRows.all(
                    db, "SELECT \(CodeLane.columns) FROM code_lanes WHERE batch_id = ? ORDER BY lane", [batchId])
            }
            return all
        }
    }

    func batchesWithLanes() async throws -> [[LedgerValue]] {
        try await rows("SELECT id FROM batches b WHERE EXISTS (SELECT 1 FROM code_lanes l WHERE l.batch_id = b.id)")
    }

    func laneCounts(batchId: Int64, personalLanes: Int64?) async throws -> [[LedgerValue]] {
        if let personalLanes {
            return try await rows(
                "SELECT seq % ?, COUNT(*) FROM assignments WHERE batch_id = ? AND shared = 0 GROUP BY 1",
                [personalLanes, batchId])
        }
        return try await rows(
            "SELECT seq, COUNT(*) FROM assignments WHERE batch_id = ? AND shared = 1 GROUP BY seq", [batchId])
    }

    // MARK: App Store Connect resources

    /// The columns of a `connect_resources` row, as ``LedgerRow/ConnectResource`` decodes them.
    static let resourceColumns =
        "id, campaign, offer, kind, key, request_id, resource_type, state, asc_id, body_digest, error, updated_at, "
        + "offer_kind"

    func connectResourceRows(campaign: String, resource: ConnectResourceKey?) async throws -> [[LedgerValue]] {
        let columns = Self.resourceColumns
        guard let resource else {
            return try await rows("SELECT \(columns) FROM connect_resources WHERE campaign = ? ORDER BY id", [campaign])
        }
        return try await rows(
            """
            SELECT \(columns) FROM connect_resources
            WHERE campaign = ? AND offer_kind = ? AND offer = ? AND kind = ? AND key = ?
            """,
            [campaign, resource.offerKind, resource.offer, resource.kind, resource.key])
    }

    func createdPromotionalOfferRows() async throws -> [[LedgerValue]] {
        try await rows(
            """
            SELECT c.bundle_id, r.key, r.offer FROM connect_resources r JOIN campaigns c ON c.name = r.campaign
            WHERE r.offer_kind = 'promotionalOffer' AND r.state = 'created' ORDER BY r.id
            """, [])
    }

    func createdConnectIds(kinds: [String]) async throws -> [[LedgerValue]] {
        let list = kinds.map { _ in "?" }.joined(separator: ", ")
        return try await rows(
            "SELECT asc_id FROM connect_resources WHERE state = 'created' AND kind IN (\(list)) AND asc_id IS NOT NULL",
            StatementArguments(kinds))
    }

    // MARK: Price points

    func pricePointRows(campaign: String) async throws -> [[LedgerValue]] {
        try await rows(
            "SELECT \(LedgerRow.PricePoint.columns) FROM price_points WHERE campaign = ? ORDER BY id", [campaign])
    }

    // MARK: Writing

    func upsertCampaign(_ campaign: Campaign) async throws -> Int64 {
        let path = path
        return try await run { db in
            try db.execute(
                sql: "INSERT INTO apps (app_apple_id) VALUES (?) ON CONFLICT (app_apple_id) DO NOTHING",
                arguments: [campaign.app.appAppleId])
            guard
                let appId = try Int64.fetchOne(
                    db, sql: "SELECT id FROM apps WHERE app_apple_id = ?", arguments: [campaign.app.appAppleId])
            else {
                throw LedgerError.corrupt(
                    path: path, reason: "the row of app \(campaign.app.appAppleId) is missing right after its insert")
            }
            try db.execute(
                sql: """
                    INSERT INTO campaigns (name, app_id, bundle_id, recorded_at) VALUES (?, ?, ?, \(Self.now))
                    ON CONFLICT (name) DO UPDATE SET bundle_id = excluded.bundle_id
                    """,
                arguments: [campaign.name, appId, campaign.app.bundleId])
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO offers (campaign, name, product_type, product_asc_id, product_id) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (campaign, name) DO UPDATE SET product_type = excluded.product_type,
                        product_asc_id = excluded.product_asc_id, product_id = excluded.product_id
                    """)
            for offer in campaign.offers {
                try statement.execute(arguments: [
                    campaign.name, offer.referenceName, offer.product.type.rawValue, offer.product.id,
                    offer.product.productId,
                ])
            }
            return appId
        }
    }

    func offerCount(campaign: String) async throws -> Int {
        Int(try await count("SELECT COUNT(*) FROM offers WHERE campaign = ?", [campaign]))
    }

    func activeOfferCount(appAppleId: String) async throws -> Int {
        Int(
            try await count(
                """
                SELECT COUNT(*) FROM offers o JOIN campaigns c ON c.name = o.campaign JOIN apps a ON a.id = c.app_id
                WHERE a.app_apple_id = ? AND o.active = 1
                """, [appAppleId]))
    }

    func insertBatch(_ batch: LedgerBatch) async throws -> Int64 {
        try await run { db in
            try db.execute(
                sql: """
                    INSERT INTO batches (campaign, offer, kind, idx, quarter, redemption_limit, code_count,
                        expiration_date, environment, recorded_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, \(Self.now))
                    """,
                arguments: [
                    batch.campaign, batch.offer, batch.kind.rawValue, batch.index, batch.quarter,
                    batch.redemptionLimit, batch.codeCount, batch.expirationDate?.description,
                    batch.environment.rawValue,
                ])
            return db.lastInsertedRowID
        }
    }

    func takenCodeKeys(appId: Int64, keys: [String]) async throws -> [[LedgerValue]] {
        try await run { db in
            let statement = try db.cachedStatement(sql: "SELECT code_key FROM codes WHERE app_id = ? AND code_key = ?")
            var taken: [[LedgerValue]] = []
            for key in keys {
                if let row = try SQLiteRows.one(db, statement, [appId, key]) { taken.append(row) }
            }
            return taken
        }
    }

    func insertCodes(_ codes: [NewCode], batchId: Int64, appId: Int64) async throws {
        try await run { db in
            try SQLiteCodeRows.insert(
                db, batchId: batchId, codes.lazy.map { ($0.seq, appId, $0.key, $0.original, $0.digest) })
        }
    }

    func sealBatch(id: Int64, storedCodes: Int, codesDigest: [UInt8], checksum: [UInt8]) async throws {
        try await execute(
            "UPDATE batches SET stored_codes = ?, codes_digest = ?, checksum = ? WHERE id = ?",
            [storedCodes, Data(codesDigest), Data(checksum), id])
    }

    func insertLanes(_ lanes: [CodeLane]) async throws {
        try await run { db in
            let statement = try db.cachedStatement(
                sql: "INSERT INTO code_lanes (\(CodeLane.columns)) VALUES (?, ?, ?, ?, ?, ?)")
            for lane in lanes {
                try statement.execute(arguments: [
                    lane.batchId, lane.lane, lane.shared ? 1 : 0, lane.taken, lane.capacity, lane.step,
                ])
            }
        }
    }

    func deleteLanes(batchIds: [Int64]) async throws {
        try await run { db in
            let statement = try db.cachedStatement(sql: "DELETE FROM code_lanes WHERE batch_id = ?")
            for batchId in batchIds { try statement.execute(arguments: [batchId]) }
        }
    }

    func updateLanes(_ lanes: [CodeLane]) async throws {
        try await run { db in
            let statement = try db.cachedStatement(
                sql: "UPDATE code_lanes SET taken = ? WHERE batch_id = ? AND lane = ?")
            for lane in lanes { try statement.execute(arguments: [lane.taken, lane.batchId, lane.lane]) }
        }
    }

    func bumpRevision(campaign: String, offer: String) async throws {
        try await execute(
            "UPDATE offers SET revision = revision + 1 WHERE campaign = ? AND name = ?", [campaign, offer])
    }

    func setOfferActive(_ active: Bool, campaign: String, offer: String) async throws {
        try await execute(
            "UPDATE offers SET active = ? WHERE campaign = ? AND name = ?", [active ? 1 : 0, campaign, offer])
    }

    func insertAssignments(_ assignments: [NewAssignment], scope: AssignmentScope) async throws {
        try await run { db in
            let campaign = LedgerValue.text(scope.campaign)
            let offer = LedgerValue.text(scope.offer)
            let environment = LedgerValue.text(scope.environment.rawValue)
            let statement = try db.cachedStatement(sql: SQLiteClaim.insertSQL)
            var lastDate: (Date, String)?
            for assignment in assignments {
                let text: String
                if let lastDate, lastDate.0 == assignment.assignedAt {
                    text = lastDate.1
                } else {
                    text = LedgerTimestamp.text(assignment.assignedAt)
                    lastDate = (assignment.assignedAt, text)
                }
                try SQLiteRows.execute(
                    db, statement,
                    binding: [
                        .integer(assignment.batchId), .integer(assignment.seq), campaign, offer, environment,
                        .text(assignment.recipient), .integer(assignment.shared ? 1 : 0),
                        .text(assignment.channel.rawValue), .text(text),
                    ])
            }
        }
    }

    func upsertConnectResource(_ resource: ConnectResource) async throws {
        try await execute(
            """
            INSERT INTO connect_resources (campaign, offer, kind, key, request_id, resource_type, state, asc_id,
            body_digest, error, updated_at, offer_kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (campaign, offer_kind, offer, kind, key) DO UPDATE SET request_id = excluded.request_id,
            resource_type = excluded.resource_type, state = excluded.state, asc_id = excluded.asc_id,
            body_digest = excluded.body_digest, error = excluded.error, updated_at = excluded.updated_at
            """,
            [
                resource.campaign, resource.offer, resource.kind.rawValue, resource.key, resource.requestId,
                resource.resourceType, resource.state.rawValue, resource.id, resource.bodyDigest, resource.error,
                LedgerTimestamp.text(resource.updatedAt), resource.offerKind.rawValue,
            ])
    }

    func insertPricePoint(_ price: ResolvedPrice, campaign: String) async throws {
        try await execute(
            """
            INSERT INTO price_points (campaign, product_type, product_id, territory, customer_price, price_point,
            recorded_at) VALUES (?, ?, ?, ?, ?, ?, \(Self.now))
            ON CONFLICT (campaign, product_type, product_id, territory, customer_price) DO NOTHING
            """,
            [
                campaign, price.query.product.type, price.query.product.id, price.query.territory,
                price.customerPrice, price.pricePoint,
            ])
    }

    /// SQL for the current UTC time, ISO 8601 with milliseconds.
    static let now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"

    // MARK: Copying a whole ledger

    func copyRows(_ table: LedgerTable, afterKey: Int64, limit: Int) async throws -> [[LedgerValue]] {
        let select =
            switch table {
            case .apps: "SELECT id, app_apple_id FROM apps WHERE id > ? ORDER BY id"
            case .campaigns:
                "SELECT rowid, name, app_id, bundle_id, recorded_at FROM campaigns WHERE rowid > ? ORDER BY rowid"
            case .offers:
                """
                SELECT rowid, campaign, name, product_type, product_asc_id, product_id, active, revision FROM offers
                WHERE rowid > ? ORDER BY rowid
                """
            case .assignments:
                """
                SELECT id, batch_id, seq, campaign, offer, environment, recipient, shared, channel, assigned_at
                FROM assignments WHERE id > ? ORDER BY id
                """
            case .connectResources:
                "SELECT \(Self.resourceColumns) FROM connect_resources WHERE id > ? ORDER BY id"
            case .pricePoints:
                "SELECT \(LedgerRow.PricePoint.columns) FROM price_points WHERE id > ? ORDER BY id"
            }
        return try await rows(select + " LIMIT ?", [afterKey, limit])
    }

    func copyCodeRows(batchId: Int64, afterSeq: Int64, limit: Int) async throws -> [[LedgerValue]] {
        try await rows(
            "SELECT seq, app_id, code_key, code, digest FROM codes WHERE batch_id = ? AND seq > ? ORDER BY seq LIMIT ?",
            [batchId, afterSeq, limit])
    }

    func load(_ rows: LedgerRows) async throws {
        try await connection.run(label: path, operation: rows.operation) { db in
            try SQLiteCodeRows.load(rows, db: db)
        }
    }

    /// Nothing to do: SQLite gives a new row the largest id plus one.
    func finishLoad() async throws {}

    func rowCounts() async throws -> LedgerRow.Counts {
        let path = path
        return try await run { db in
            var counts = LedgerRow.Counts()
            func count(_ table: String) throws -> Int { Int(try SQLiteRows.count(db, "SELECT COUNT(*) FROM \(table)")) }
            counts.apps = try count("apps")
            counts.campaigns = try count("campaigns")
            counts.offers = try count("offers")
            counts.assignments = try count("assignments")
            counts.connectResources = try count("connect_resources")
            counts.pricePoints = try count("price_points")
            for row in try SQLiteRows.all(db, "SELECT batch_id, COUNT(*) FROM codes GROUP BY batch_id") {
                guard case .integer(let batch) = row[0], case .integer(let codes) = row[1] else {
                    throw LedgerError.corrupt(path: path, reason: "a value in codes.batch_id is not a number")
                }
                counts.codesPerBatch[batch] = Int(codes)
            }
            return counts
        }
    }
}
