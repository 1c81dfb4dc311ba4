import Foundation
import Logging
import NIOCore
import OfferCodes
import OfferLedger
import PostgresNIO

/// The statements of one PostgreSQL transaction (``LedgerTransaction``), on the transaction's
/// connection. Tables are named without their schema: every connection's `search_path` is the
/// ledger's. Times are read as text (`YYYY-MM-DDTHH:MM:SS.ffffffZ`), booleans as 0 or 1.
final class PostgresTransaction: LedgerTransaction {
    private let connection: PostgresConnection
    private let logger: Logger
    private let store: PostgresLedgerStore

    init(connection: PostgresConnection, logger: Logger, store: PostgresLedgerStore) {
        self.connection = connection
        self.logger = logger
        self.store = store
    }

    /// Runs a statement and returns its rows.
    @discardableResult
    func query(_ query: PostgresQuery) async throws -> [[LedgerValue]] {
        try await connection.query(query, logger: logger).collect().map(PostgresValues.values)
    }

    private func count(_ query: PostgresQuery) async throws -> Int64 {
        guard case .integer(let number)? = try await self.query(query).first?.first else { return 0 }
        return number
    }

    /// A time as text, in UTC with microseconds.
    static func text(_ column: String) -> String {
        "to_char(\(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')"
    }

    // MARK: Campaigns, offers, batches

    func batchRows(_ selection: BatchSelection) async throws -> [[LedgerValue]] {
        switch selection {
        case .all:
            return try await query(PostgresQuery(unsafeSQL: "SELECT \(StoredBatch.columns) FROM batches ORDER BY id"))
        case .offer(let campaign, let offer):
            var query = PostgresQuery(
                unsafeSQL: "SELECT \(StoredBatch.columns) FROM batches WHERE campaign = $1 AND offer = $2 ORDER BY id")
            query.binds.append(campaign)
            query.binds.append(offer)
            return try await self.query(query)
        }
    }

    func batchTimes() async throws -> [[LedgerValue]] {
        try await query(PostgresQuery(unsafeSQL: "SELECT id, \(Self.text("recorded_at")) FROM batches"))
    }

    func campaignRecordedAt(_ campaign: String) async throws -> [LedgerValue]? {
        try await query(
            PostgresQuery(
                unsafeSQL: "SELECT \(Self.text("recorded_at")) FROM campaigns WHERE name = $1",
                binds: try Self.binds(campaign))
        ).first
    }

    func campaignApp(_ campaign: String) async throws -> [LedgerValue]? {
        try await query(
            "SELECT c.app_id, a.app_apple_id, c.bundle_id FROM campaigns c LEFT JOIN apps a ON a.id = c.app_id WHERE c.name = \(campaign)"
        ).first
    }

    func appCampaigns(appAppleId: String) async throws -> [[LedgerValue]] {
        try await query(
            "SELECT c.name FROM campaigns c JOIN apps a ON a.id = c.app_id WHERE a.app_apple_id = \(appAppleId)")
    }

    func activeOfferNames(appAppleId: String, excludingCampaign: String) async throws -> [[LedgerValue]] {
        try await query(
            """
            SELECT o.name FROM offers o JOIN campaigns c ON c.name = o.campaign JOIN apps a ON a.id = c.app_id
            WHERE a.app_apple_id = \(appAppleId) AND c.name <> \(excludingCampaign) AND o.active
            ORDER BY c.seq, o.seq
            """)
    }

    func offerRows(campaign: String) async throws -> [[LedgerValue]] {
        try await query("SELECT name, active, revision FROM offers WHERE campaign = \(campaign) ORDER BY seq")
    }

    func offerState(campaign: String, offer: String) async throws -> [LedgerValue]? {
        try await query(
            """
            SELECT o.active, o.revision, a.app_apple_id FROM offers o
            LEFT JOIN campaigns c ON c.name = o.campaign LEFT JOIN apps a ON a.id = c.app_id
            WHERE o.campaign = \(campaign) AND o.name = \(offer)
            """
        ).first
    }

    func issuedCodeKeys(appAppleId: String, keys: [String], excludingCampaign: String) async throws -> [[LedgerValue]] {
        try await query(
            """
            SELECT DISTINCT c.code_key FROM codes c JOIN apps a ON a.id = c.app_id JOIN batches b ON b.id = c.batch_id
            WHERE a.app_apple_id = \(appAppleId) AND c.code_key = ANY(\(keys)::text[]) AND b.campaign <> \(excludingCampaign)
            """)
    }

    // MARK: Codes

    func codeRows(batchId: Int64, fromSeq: Int64, limit: Int) async throws -> [[LedgerValue]] {
        try await query(
            """
            SELECT seq, COALESCE(code, code_key), digest FROM codes WHERE batch_id = \(batchId) AND seq >= \(fromSeq)
            ORDER BY seq LIMIT \(Int64(limit))
            """)
    }

    func codeRowCount(batchId: Int64) async throws -> Int64 {
        try await count("SELECT count(*) FROM codes WHERE batch_id = \(batchId)")
    }

    // MARK: Assignments and lanes

    func heldAssignments(recipients: [String], scope: AssignmentScope) async throws -> [[LedgerValue]] {
        guard !recipients.isEmpty else { return [] }
        return try await query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT a.recipient, a.batch_id, a.seq, COALESCE(c.code, c.code_key), c.digest, a.channel,
                        \(Self.text("a.assigned_at"))
                    FROM assignments a JOIN codes c ON c.batch_id = a.batch_id AND c.seq = a.seq
                    WHERE a.campaign = $1 AND a.offer = $2 AND a.environment = $3 AND a.recipient = ANY($4::text[])
                    """, binds: try Self.binds(scope.campaign, scope.offer, scope.environment.rawValue, recipients)))
    }

    func assignmentRows(campaign: String, offer: String?, afterId: Int64, limit: Int) async throws -> [[LedgerValue]] {
        var binds = PostgresBindings()
        binds.append(campaign)
        binds.append(offer)
        binds.append(afterId)
        binds.append(Int64(limit))
        return try await query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT a.id, a.recipient, a.batch_id, a.seq, COALESCE(c.code, c.code_key), c.digest, a.channel,
                        \(Self.text("a.assigned_at"))
                    FROM assignments a JOIN codes c ON c.batch_id = a.batch_id AND c.seq = a.seq
                    WHERE a.campaign = $1 AND ($2::text IS NULL OR a.offer = $2) AND a.id > $3 ORDER BY a.id LIMIT $4
                    """, binds: binds))
    }

    func assignmentCounts(campaign: String) async throws -> [[LedgerValue]] {
        try await query(
            "SELECT batch_id, shared, count(*) FROM assignments WHERE campaign = \(campaign) GROUP BY batch_id, shared")
    }

    func lanes(batchIds: [Int64], lock: Bool) async throws -> [[LedgerValue]] {
        guard !batchIds.isEmpty else { return [] }
        return try await query(
            PostgresQuery(
                unsafeSQL: "SELECT \(CodeLane.columns) FROM code_lanes WHERE batch_id = ANY($1::bigint[]) "
                    + "ORDER BY batch_id, lane" + (lock ? " FOR UPDATE" : ""), binds: try Self.binds(batchIds)))
    }

    func batchesWithLanes() async throws -> [[LedgerValue]] {
        try await query("SELECT id FROM batches b WHERE EXISTS (SELECT 1 FROM code_lanes l WHERE l.batch_id = b.id)")
    }

    func laneCounts(batchId: Int64, personalLanes: Int64?) async throws -> [[LedgerValue]] {
        if let personalLanes {
            return try await query(
                """
                SELECT seq % \(personalLanes), count(*) FROM assignments WHERE batch_id = \(batchId) AND NOT shared
                GROUP BY 1
                """)
        }
        return try await query(
            "SELECT seq, count(*) FROM assignments WHERE batch_id = \(batchId) AND shared GROUP BY seq")
    }

    // MARK: App Store Connect resources

    private static let resourceColumns = """
        id, campaign, offer, kind, key, request_id, resource_type, state, asc_id, body_digest, error, \
        \(text("updated_at")), offer_kind
        """

    func connectResourceRows(campaign: String, resource: ConnectResourceKey?) async throws -> [[LedgerValue]] {
        guard let resource else {
            return try await query(
                PostgresQuery(
                    unsafeSQL: "SELECT \(Self.resourceColumns) FROM connect_resources WHERE campaign = $1 ORDER BY id",
                    binds: try Self.binds(campaign)))
        }
        return try await query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT \(Self.resourceColumns) FROM connect_resources
                    WHERE campaign = $1 AND offer_kind = $2 AND offer = $3 AND kind = $4 AND key = $5
                    """,
                binds: try Self.binds(campaign, resource.offerKind, resource.offer, resource.kind, resource.key)))
    }

    func createdPromotionalOfferRows() async throws -> [[LedgerValue]] {
        try await query(
            """
            SELECT c.bundle_id, r.key, r.offer FROM connect_resources r JOIN campaigns c ON c.name = r.campaign
            WHERE r.offer_kind = 'promotionalOffer' AND r.state = 'created' ORDER BY r.id
            """)
    }

    func createdConnectIds(kinds: [String]) async throws -> [[LedgerValue]] {
        try await query(
            """
            SELECT asc_id FROM connect_resources WHERE state = 'created' AND kind = ANY(\(kinds)::text[])
                AND asc_id IS NOT NULL
            """)
    }

    // MARK: Price points

    private static let pricePointColumns = """
        id, campaign, product_type, product_id, territory, customer_price, price_point, \(text("recorded_at"))
        """

    func pricePointRows(campaign: String) async throws -> [[LedgerValue]] {
        try await query(
            PostgresQuery(
                unsafeSQL: "SELECT \(Self.pricePointColumns) FROM price_points WHERE campaign = $1 ORDER BY id",
                binds: try Self.binds(campaign)))
    }

    // MARK: Writing

    func upsertCampaign(_ campaign: Campaign) async throws -> Int64 {
        let appAppleId = campaign.app.appAppleId
        try await query("INSERT INTO apps (app_apple_id) VALUES (\(appAppleId)) ON CONFLICT (app_apple_id) DO NOTHING")
        guard
            case .integer(let appId)? = try await query("SELECT id FROM apps WHERE app_apple_id = \(appAppleId)").first?
                .first
        else {
            throw LedgerError.corrupt(
                path: store.name, reason: "the row of app \(appAppleId) is missing right after its insert")
        }
        try await query(
            """
            INSERT INTO campaigns (name, app_id, bundle_id) VALUES (\(campaign.name), \(appId), \(campaign.app.bundleId))
            ON CONFLICT (name) DO UPDATE SET bundle_id = excluded.bundle_id
            """)
        let offers = campaign.offers
        try await query(
            """
            INSERT INTO offers (campaign, name, product_type, product_asc_id, product_id)
            SELECT \(campaign.name), n, t, i, p FROM unnest(\(offers.map(\.referenceName))::text[],
                \(offers.map(\.product.type.rawValue))::text[], \(offers.map(\.product.id))::text[],
                \(offers.map(\.product.productId))::text[]) WITH ORDINALITY AS u(n, t, i, p, o) ORDER BY o
            ON CONFLICT (campaign, name) DO UPDATE SET product_type = excluded.product_type,
                product_asc_id = excluded.product_asc_id, product_id = excluded.product_id
            """)
        return appId
    }

    func offerCount(campaign: String) async throws -> Int {
        Int(try await count("SELECT count(*) FROM offers WHERE campaign = \(campaign)"))
    }

    func activeOfferCount(appAppleId: String) async throws -> Int {
        Int(
            try await count(
                """
                SELECT count(*) FROM offers o JOIN campaigns c ON c.name = o.campaign JOIN apps a ON a.id = c.app_id
                WHERE a.app_apple_id = \(appAppleId) AND o.active
                """))
    }

    func insertBatch(_ batch: LedgerBatch) async throws -> Int64 {
        let rows = try await query(
            """
            INSERT INTO batches (campaign, offer, kind, idx, quarter, redemption_limit, code_count, expiration_date,
                environment)
            VALUES (\(batch.campaign), \(batch.offer), \(batch.kind.rawValue), \(Int64(batch.index)), \(batch.quarter),
                \(Int64(batch.redemptionLimit)), \(Int64(batch.codeCount)), \(batch.expirationDate?.description),
                \(batch.environment.rawValue))
            RETURNING id
            """)
        guard case .integer(let id)? = rows.first?.first else {
            throw LedgerError.databaseFailure(operation: "record a batch", reason: "the server returned no batch id")
        }
        return id
    }

    func takenCodeKeys(appId: Int64, keys: [String]) async throws -> [[LedgerValue]] {
        try await query("SELECT code_key FROM codes WHERE app_id = \(appId) AND code_key = ANY(\(keys)::text[])")
    }

    func insertCodes(_ codes: [NewCode], batchId: Int64, appId: Int64) async throws {
        guard let first = codes.first else { return }
        // The digests are computed by the server, by the formula the claims check (``CodeDigest``).
        try await query(
            PostgresQuery(
                unsafeSQL: """
                    INSERT INTO codes (batch_id, seq, app_id, code_key, code, digest)
                    SELECT $1, $2 + u.o - 1, $3, u.k, NULLIF(u.c, ''),
                        \(CodeDigest.sql(batchId: "$1::bigint", seq: "$2 + u.o - 1", code: "COALESCE(NULLIF(u.c, ''), u.k)"))
                    FROM unnest($4::text[], $5::text[]) WITH ORDINALITY AS u(k, c, o)
                    """,
                binds: try Self.binds(batchId, first.seq, appId, codes.map(\.key), codes.map { $0.original ?? "" })))
    }

    func sealBatch(id: Int64, storedCodes: Int, codesDigest: [UInt8], checksum: [UInt8]) async throws {
        try await query(
            """
            UPDATE batches SET stored_codes = \(Int64(storedCodes)), codes_digest = \(ByteBuffer(bytes: codesDigest)),
                checksum = \(ByteBuffer(bytes: checksum))
            WHERE id = \(id)
            """)
    }

    func insertLanes(_ lanes: [CodeLane]) async throws {
        guard !lanes.isEmpty else { return }
        try await query(
            """
            INSERT INTO code_lanes (\(unescaped: CodeLane.columns))
            SELECT * FROM unnest(\(lanes.map(\.batchId))::bigint[], \(lanes.map(\.lane))::bigint[],
                \(lanes.map(\.shared))::boolean[], \(lanes.map(\.taken))::bigint[], \(lanes.map(\.capacity))::bigint[],
                \(lanes.map(\.step))::bigint[])
            """)
    }

    func deleteLanes(batchIds: [Int64]) async throws {
        guard !batchIds.isEmpty else { return }
        try await query("DELETE FROM code_lanes WHERE batch_id = ANY(\(batchIds)::bigint[])")
    }

    func updateLanes(_ lanes: [CodeLane]) async throws {
        guard !lanes.isEmpty else { return }
        try await query(
            """
            UPDATE code_lanes l SET taken = u.t
            FROM unnest(\(lanes.map(\.batchId))::bigint[], \(lanes.map(\.lane))::bigint[], \(lanes.map(\.taken))::bigint[])
                AS u(b, n, t)
            WHERE l.batch_id = u.b AND l.lane = u.n
            """)
    }

    func bumpRevision(campaign: String, offer: String) async throws {
        try await query("UPDATE offers SET revision = revision + 1 WHERE campaign = \(campaign) AND name = \(offer)")
    }

    func setOfferActive(_ active: Bool, campaign: String, offer: String) async throws {
        try await query("UPDATE offers SET active = \(active) WHERE campaign = \(campaign) AND name = \(offer)")
    }

    func insertAssignments(_ assignments: [NewAssignment], scope: AssignmentScope) async throws {
        guard !assignments.isEmpty else { return }
        try await query(
            """
            INSERT INTO assignments (batch_id, seq, campaign, offer, environment, recipient, shared, channel, assigned_at)
            SELECT b, s, \(scope.campaign), \(scope.offer), \(scope.environment.rawValue), r, sh, c, t::timestamptz
            FROM unnest(\(assignments.map(\.batchId))::bigint[], \(assignments.map(\.seq))::bigint[],
                \(assignments.map(\.recipient))::text[], \(assignments.map(\.shared))::boolean[],
                \(assignments.map(\.channel.rawValue))::text[],
                \(assignments.map { LedgerTimestamp.text($0.assignedAt) })::text[])
                AS u(b, s, r, sh, c, t)
            """)
    }

    func upsertConnectResource(_ resource: ConnectResource) async throws {
        let (campaign, offer, kind, key) = (resource.campaign, resource.offer, resource.kind.rawValue, resource.key)
        let (requestId, type, state) = (resource.requestId, resource.resourceType, resource.state.rawValue)
        let (id, digest, error, date) = (resource.id, resource.bodyDigest, resource.error, resource.updatedAt)
        let offerKind = resource.offerKind.rawValue
        try await query(
            """
            INSERT INTO connect_resources (campaign, offer, kind, key, request_id, resource_type, state, asc_id,
            body_digest, error, updated_at, offer_kind) VALUES (\(campaign), \(offer), \(kind), \(key), \(requestId),
            \(type), \(state), \(id), \(digest), \(error), \(date), \(offerKind))
            ON CONFLICT (campaign, offer_kind, offer, kind, key) DO UPDATE SET request_id = excluded.request_id,
            resource_type = excluded.resource_type, state = excluded.state, asc_id = excluded.asc_id,
            body_digest = excluded.body_digest, error = excluded.error, updated_at = excluded.updated_at
            """)
    }

    func insertPricePoint(_ price: ResolvedPrice, campaign: String) async throws {
        let (type, id, territory) = (price.query.product.type, price.query.product.id, price.query.territory)
        let (customerPrice, pricePoint) = (price.customerPrice, price.pricePoint)
        try await query(
            """
            INSERT INTO price_points (campaign, product_type, product_id, territory, customer_price, price_point,
            recorded_at) VALUES (\(campaign), \(type), \(id), \(territory), \(customerPrice), \(pricePoint), now())
            ON CONFLICT (campaign, product_type, product_id, territory, customer_price) DO NOTHING
            """)
    }

    // MARK: Copying a whole ledger

    func copyRows(_ table: LedgerTable, afterKey: Int64, limit: Int) async throws -> [[LedgerValue]] {
        let select =
            switch table {
            case .apps: "SELECT id, app_apple_id FROM apps WHERE id > $1 ORDER BY id"
            case .campaigns:
                "SELECT seq, name, app_id, bundle_id, \(Self.text("recorded_at")) FROM campaigns WHERE seq > $1 ORDER BY seq"
            case .offers:
                """
                SELECT seq, campaign, name, product_type, product_asc_id, product_id, active, revision FROM offers
                WHERE seq > $1 ORDER BY seq
                """
            case .assignments:
                """
                SELECT id, batch_id, seq, campaign, offer, environment, recipient, shared, channel,
                    \(Self.text("assigned_at"))
                FROM assignments WHERE id > $1 ORDER BY id
                """
            case .connectResources: "SELECT \(Self.resourceColumns) FROM connect_resources WHERE id > $1 ORDER BY id"
            case .pricePoints: "SELECT \(Self.pricePointColumns) FROM price_points WHERE id > $1 ORDER BY id"
            }
        return try await query(
            PostgresQuery(unsafeSQL: select + " LIMIT $2", binds: try Self.binds(afterKey, Int64(limit))))
    }

    func copyCodeRows(batchId: Int64, afterSeq: Int64, limit: Int) async throws -> [[LedgerValue]] {
        try await query(
            """
            SELECT seq, app_id, code_key, code, digest FROM codes WHERE batch_id = \(batchId) AND seq > \(afterSeq)
            ORDER BY seq LIMIT \(Int64(limit))
            """)
    }

    func load(_ rows: LedgerRows) async throws {
        do {
            try await PostgresLoad.load(rows, into: self)
        } catch {
            throw store.translate(error, operation: rows.operation)
        }
    }

    /// Moves each identity sequence past the largest id loaded (`setval` is not undone by a
    /// rollback: a copy that fails later only leaves gaps in the numbering, as any rolled-back
    /// insert does).
    func finishLoad() async throws {
        let schema = store.location.schema
        for (table, column) in [
            ("apps", "id"), ("campaigns", "seq"), ("offers", "seq"), ("batches", "id"), ("assignments", "id"),
            ("connect_resources", "id"), ("price_points", "id"),
        ] {
            try await query(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT setval(pg_get_serial_sequence('\(schema).\(table)', '\(column)'),
                            COALESCE((SELECT max(\(column)) FROM \(table)), 0) + 1, false)
                        """))
        }
    }

    func rowCounts() async throws -> LedgerRow.Counts {
        var counts = LedgerRow.Counts()
        func count(_ table: String) async throws -> Int {
            Int(try await self.count(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)")))
        }
        counts.apps = try await count("apps")
        counts.campaigns = try await count("campaigns")
        counts.offers = try await count("offers")
        counts.assignments = try await count("assignments")
        counts.connectResources = try await count("connect_resources")
        counts.pricePoints = try await count("price_points")
        for row in try await query("SELECT batch_id, count(*) FROM codes GROUP BY batch_id") {
            guard case .integer(let batch) = row[0], case .integer(let codes) = row[1] else { continue }
            counts.codesPerBatch[batch] = Int(codes)
        }
        return counts
    }

    /// Binds of values of different types, in order.
    static func binds(_ values: any PostgresEncodable...) throws -> PostgresBindings {
        var bindings = PostgresBindings()
        for value in values { try bindings.append(value, context: .default) }
        return bindings
    }
}
