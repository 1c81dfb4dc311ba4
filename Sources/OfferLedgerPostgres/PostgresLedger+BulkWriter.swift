import Foundation
import NIOCore
import OfferCodes
import PostgresNIO

extension PostgresLedger: LedgerBulkWriter {
    /// Runs `body` in one transaction that holds the ledger's write lock (as every write of the
    /// ledger), with a loader that inserts rows as given; see ``LedgerBulkWriter/bulkLoad(_:)``.
    /// A transaction that does not commit (an error, a killed process, a lost connection) is
    /// rolled back by the server: the ledger gets all of the rows or none.
    package func bulkLoad<T>(_ body: (any LedgerBulkLoader) throws -> T) throws -> T {
        try transaction(.write, "copy a ledger into this one") { session in
            try body(PostgresBulkLoader(session: session, ledger: self))
        }
    }
}

/// Inserts copied rows into a PostgreSQL ledger inside the caller's write transaction.
///
/// Rows go in multi-row `INSERT … SELECT` statements: apps, campaigns and offers (a few rows) from
/// `unnest(…)` of arrays, codes, assignments and App Store Connect resources
/// ``LedgerCopy/chunkSize`` per statement from one
/// JSON array each (`json_array_elements`, see ``json(_:)``); a statement of codes runs on the
/// server while the next chunk is read from the source. Ids are written as given (`OVERRIDING SYSTEM VALUE`, the
/// identity columns being `GENERATED ALWAYS`), so `codes.batch_id`, `codes.app_id` and
/// `assignments.batch_id` stay valid and the order (`seq`) is kept; ``finish()`` then moves each
/// identity sequence past the largest id loaded. Failures are ``LedgerError`` naming this ledger,
/// so that they are not taken for the source's as they pass through its read.
final class PostgresBulkLoader: LedgerBulkLoader {
    private let session: PostgresSession
    private let ledger: PostgresLedger
    /// The insert of codes running on the server, if any.
    private var inFlight: ResultBox<Void>?

    init(session: PostgresSession, ledger: PostgresLedger) {
        self.session = session
        self.ledger = ledger
    }

    func apps(_ rows: [LedgerRow.App]) throws {
        guard !rows.isEmpty else { return }
        try translating("apps") {
            try session.query(
                """
                INSERT INTO apps (id, app_apple_id) OVERRIDING SYSTEM VALUE
                SELECT * FROM unnest(\(rows.map(\.id))::bigint[], \(rows.map(\.appAppleId))::text[])
                """)
        }
    }

    func campaigns(_ rows: [LedgerRow.Campaign]) throws {
        guard !rows.isEmpty else { return }
        try translating("campaigns") {
            try session.query(
                """
                INSERT INTO campaigns (seq, name, app_id, bundle_id, recorded_at) OVERRIDING SYSTEM VALUE
                SELECT s, n, a, b, t::timestamptz
                FROM unnest(\(rows.map(\.order))::bigint[], \(rows.map(\.name))::text[], \(rows.map(\.appId))::bigint[],
                    \(rows.map(\.bundleId))::text[], \(rows.map(\.recordedAt.text))::text[]) AS u(s, n, a, b, t)
                """)
        }
    }

    func offers(_ rows: [LedgerRow.Offer]) throws {
        guard !rows.isEmpty else { return }
        try translating("offers") {
            try session.query(
                """
                INSERT INTO offers (seq, campaign, name, product_type, product_asc_id, product_id, active)
                OVERRIDING SYSTEM VALUE
                SELECT * FROM unnest(\(rows.map(\.order))::bigint[], \(rows.map(\.campaign))::text[],
                    \(rows.map(\.name))::text[], \(rows.map(\.productType))::text[], \(rows.map(\.productAscId))::text[],
                    \(rows.map(\.productId))::text[], \(rows.map(\.active))::boolean[])
                """)
        }
    }

    /// One statement per batch: there are few, and their expiration date may be `NULL`.
    func batches(_ rows: [LedgerRow.Batch]) throws {
        try translating("batches") {
            for row in rows {
                let batch = row.batch
                try session.query(
                    """
                    INSERT INTO batches (id, campaign, offer, kind, idx, quarter, redemption_limit, code_count,
                        expiration_date, environment, recorded_at, stored_codes, codes_digest, checksum)
                    OVERRIDING SYSTEM VALUE
                    VALUES (\(row.id), \(batch.campaign), \(batch.offer), \(batch.kind.rawValue), \(Int64(batch.index)),
                        \(batch.quarter), \(Int64(batch.redemptionLimit)), \(Int64(batch.codeCount)),
                        \(batch.expirationDate?.description), \(batch.environment.rawValue),
                        \(row.recordedAt.text)::timestamptz, \(Int64(row.storedCodes)),
                        \(ByteBuffer(bytes: row.codesDigest)), \(ByteBuffer(bytes: row.checksum)))
                    """)
            }
        }
    }

    /// Sends the chunk without waiting for it: the statement before it is waited for first.
    ///
    /// The usual chunk (numbered without gaps, one app, every code equal to its key) goes as one
    /// JSON array of keys; a chunk that differs as an array of `[seq, app, key, code]`.
    func codes(_ chunk: [LedgerRow.Code], of batch: LedgerRow.Batch) throws {
        try waitForCodes()
        guard let first = chunk.first else { return }
        let batchId = batch.id
        let numbered = zip(chunk, chunk.dropFirst()).allSatisfy { $0.seq + 1 == $1.seq }
        let oneApp = chunk.allSatisfy { $0.appId == first.appId }
        let query: PostgresQuery
        if numbered, oneApp, chunk.allSatisfy({ $0.code == nil }) {
            let keys = try Self.json(chunk.map(\.key))
            query = """
                INSERT INTO codes (batch_id, seq, app_id, code_key, code)
                SELECT \(batchId), \(first.seq) + u.ord - 1, \(first.appId), u.k, NULL
                FROM json_array_elements_text(\(keys)::json) WITH ORDINALITY AS u(k, ord)
                """
        } else {
            let rows = try Self.json(
                chunk.map { [$0.seq, $0.appId, $0.key, $0.code.map { $0 as Any } ?? NSNull()] as [Any] })
            query = """
                INSERT INTO codes (batch_id, seq, app_id, code_key, code)
                SELECT \(batchId), (e->>0)::bigint, (e->>1)::bigint, e->>2, e->>3
                FROM json_array_elements(\(rows)::json) AS e
                """
        }
        let logger = session.logger
        inFlight = session.submit { connection in _ = try await connection.query(query, logger: logger).collect() }
    }

    func assignments(_ chunk: [LedgerRow.Assignment]) throws {
        try waitForCodes()
        guard !chunk.isEmpty else { return }
        try translating("assignments") {
            let rows = try Self.json(
                chunk.map {
                    [
                        $0.id, $0.batchId, $0.seq, $0.campaign, $0.offer, $0.environment.rawValue, $0.recipient,
                        $0.shared ? 1 : 0, $0.channel.rawValue, $0.assignedAt.text,
                    ] as [Any]
                })
            try session.query(
                """
                INSERT INTO assignments (id, batch_id, seq, campaign, offer, environment, recipient, shared, channel,
                    assigned_at)
                OVERRIDING SYSTEM VALUE
                SELECT (e->>0)::bigint, (e->>1)::bigint, (e->>2)::bigint, e->>3, e->>4, e->>5, e->>6,
                    (e->>7)::int = 1, e->>8, (e->>9)::timestamptz
                FROM json_array_elements(\(rows)::json) AS e
                """)
        }
    }

    /// As the assignments: one statement per chunk, from one JSON array of rows.
    func connectResources(_ chunk: [LedgerRow.ConnectResource]) throws {
        try waitForCodes()
        guard !chunk.isEmpty else { return }
        try translating("App Store Connect resources") {
            let rows = try Self.json(
                chunk.map {
                    [
                        $0.id, $0.campaign, $0.offer, $0.kind.rawValue, $0.key, $0.requestId, $0.resourceType,
                        $0.state.rawValue, $0.ascId.map { $0 as Any } ?? NSNull(), $0.bodyDigest,
                        $0.error.map { $0 as Any } ?? NSNull(), $0.updatedAt.text,
                    ] as [Any]
                })
            try session.query(
                """
                INSERT INTO connect_resources (id, campaign, offer, kind, key, request_id, resource_type, state, asc_id,
                    body_digest, error, updated_at)
                OVERRIDING SYSTEM VALUE
                SELECT (e->>0)::bigint, e->>1, e->>2, e->>3, e->>4, e->>5, e->>6, e->>7, e->>8, e->>9, e->>10,
                    (e->>11)::timestamptz
                FROM json_array_elements(\(rows)::json) AS e
                """)
        }
    }

    /// `value` as JSON text, written by Foundation's `JSONSerialization`: encoding thousands of
    /// values into PostgreSQL arrays one by one cost more than the inserts themselves in a debug
    /// build, and the server takes JSON apart as fast.
    private static func json(_ value: [Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self)
    }

    /// Moves each identity sequence past the largest id loaded (`setval` is not undone by a
    /// rollback: a copy that fails later only leaves gaps in the numbering, as any rolled-back
    /// insert does).
    func finish() throws {
        try waitForCodes()
        let schema = ledger.location.schema
        try translating("identity sequences") {
            for (table, column) in [
                ("apps", "id"), ("campaigns", "seq"), ("offers", "seq"), ("batches", "id"), ("assignments", "id"),
                ("connect_resources", "id"),
            ] {
                try session.query(
                    PostgresQuery(
                        unsafeSQL: """
                            SELECT setval(pg_get_serial_sequence('\(schema).\(table)', '\(column)'),
                                COALESCE((SELECT max(\(column)) FROM \(table)), 0) + 1, false)
                            """))
            }
        }
    }

    func recordedRows() throws -> LedgerRow.Counts {
        try waitForCodes()
        let label = ledger.description
        return try translating("counts") {
            var counts = LedgerRow.Counts()
            func count(_ table: String) throws -> Int {
                Int(try session.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"))[0].decode(Int64.self))
            }
            counts.apps = try count("apps")
            counts.campaigns = try count("campaigns")
            counts.offers = try count("offers")
            counts.batches = try PostgresStoredBatch.fetchAll(session, label: label).count
            counts.assignments = try count("assignments")
            counts.connectResources = try count("connect_resources")
            for row in try session.query("SELECT batch_id, count(*) FROM codes GROUP BY batch_id") {
                let (batch, codes) = try row.decode((Int64, Int64).self)
                counts.codesPerBatch[batch] = Int(codes)
            }
            return counts
        }
    }

    /// Waits for the insert of codes in flight, if any.
    private func waitForCodes() throws {
        guard let box = inFlight else { return }
        inFlight = nil
        try translating("codes") { try box.wait() }
    }

    @discardableResult
    private func translating<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw ledger.translate(error, operation: "write the copied \(what)")
        }
    }
}
