import Foundation
import NIOCore
import OfferLedger
import PostgresNIO

/// Inserts the rows of a copy into a PostgreSQL ledger, in the copy's transaction, as they are
/// given: ids and order (`OVERRIDING SYSTEM VALUE`, the identity columns being `GENERATED
/// ALWAYS`), times and digests. Apps, campaigns and offers (a few rows) come from `unnest(…)` of
/// arrays; codes, assignments and App Store Connect resources a chunk per statement, from one JSON
/// array each (encoding thousands of values into PostgreSQL arrays one by one cost more than the
/// inserts themselves in a debug build, and the server takes JSON apart as fast).
enum PostgresLoad {
    static func load(_ rows: LedgerRows, into tx: PostgresTransaction) async throws {
        switch rows {
        case .apps(let rows):
            guard !rows.isEmpty else { return }
            try await tx.query(
                """
                INSERT INTO apps (id, app_apple_id) OVERRIDING SYSTEM VALUE
                SELECT * FROM unnest(\(rows.map(\.id))::bigint[], \(rows.map(\.appAppleId))::text[])
                """)
        case .campaigns(let rows):
            guard !rows.isEmpty else { return }
            try await tx.query(
                """
                INSERT INTO campaigns (seq, name, app_id, bundle_id, recorded_at) OVERRIDING SYSTEM VALUE
                SELECT s, n, a, b, t::timestamptz
                FROM unnest(\(rows.map(\.order))::bigint[], \(rows.map(\.name))::text[], \(rows.map(\.appId))::bigint[],
                    \(rows.map(\.bundleId))::text[], \(rows.map(\.recordedAt.text))::text[]) AS u(s, n, a, b, t)
                """)
        case .offers(let rows):
            guard !rows.isEmpty else { return }
            try await tx.query(
                """
                INSERT INTO offers (seq, campaign, name, product_type, product_asc_id, product_id, active, revision)
                OVERRIDING SYSTEM VALUE
                SELECT * FROM unnest(\(rows.map(\.order))::bigint[], \(rows.map(\.campaign))::text[],
                    \(rows.map(\.name))::text[], \(rows.map(\.productType))::text[], \(rows.map(\.productAscId))::text[],
                    \(rows.map(\.productId))::text[], \(rows.map(\.active))::boolean[], \(rows.map(\.revision))::bigint[])
                """)
        case .batches(let rows):
            // One statement per batch: there are few, and their expiration date may be `NULL`.
            for row in rows {
                let batch = row.batch
                try await tx.query(
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
        case .codes(let chunk, let batch):
            guard !chunk.isEmpty else { return }
            // The digests were checked as the rows were read; the server computes the same ones.
            let rows = try json(
                chunk.map { [$0.seq, $0.appId, $0.key, $0.code.map { $0 as Any } ?? NSNull()] as [Any] })
            try await tx.query(
                PostgresQuery(
                    unsafeSQL: """
                        INSERT INTO codes (batch_id, seq, app_id, code_key, code, digest)
                        SELECT $1, (e->>0)::bigint, (e->>1)::bigint, e->>2, e->>3,
                            \(CodeDigest.sql(batchId: "$1::bigint", seq: "(e->>0)::bigint", code: "COALESCE(e->>3, e->>2)"))
                        FROM json_array_elements($2::json) AS e
                        """, binds: try PostgresTransaction.binds(batch.id, rows)))
        case .assignments(let chunk):
            guard !chunk.isEmpty else { return }
            let rows = try json(
                chunk.map {
                    [
                        $0.id, $0.batchId, $0.seq, $0.campaign, $0.offer, $0.environment.rawValue, $0.recipient,
                        $0.shared ? 1 : 0, $0.channel.rawValue, $0.assignedAt.text,
                    ] as [Any]
                })
            try await tx.query(
                """
                INSERT INTO assignments (id, batch_id, seq, campaign, offer, environment, recipient, shared, channel,
                    assigned_at)
                OVERRIDING SYSTEM VALUE
                SELECT (e->>0)::bigint, (e->>1)::bigint, (e->>2)::bigint, e->>3, e->>4, e->>5, e->>6,
                    (e->>7)::int = 1, e->>8, (e->>9)::timestamptz
                FROM json_array_elements(\(rows)::json) AS e
                """)
        case .connectResources(let chunk):
            guard !chunk.isEmpty else { return }
            let rows = try json(
                chunk.map {
                    [
                        $0.id, $0.campaign, $0.offer, $0.kind.rawValue, $0.key, $0.requestId, $0.resourceType,
                        $0.state.rawValue, $0.ascId.map { $0 as Any } ?? NSNull(), $0.bodyDigest,
                        $0.error.map { $0 as Any } ?? NSNull(), $0.updatedAt.text, $0.offerKind.rawValue,
                    ] as [Any]
                })
            try await tx.query(
                """
                INSERT INTO connect_resources (id, campaign, offer, kind, key, request_id, resource_type, state, asc_id,
                    body_digest, error, updated_at, offer_kind)
                OVERRIDING SYSTEM VALUE
                SELECT (e->>0)::bigint, e->>1, e->>2, e->>3, e->>4, e->>5, e->>6, e->>7, e->>8, e->>9, e->>10,
                    (e->>11)::timestamptz, e->>12
                FROM json_array_elements(\(rows)::json) AS e
                """)
        case .pricePoints(let chunk):
            guard !chunk.isEmpty else { return }
            let rows = try json(
                chunk.map {
                    [
                        $0.id, $0.campaign, $0.price.query.product.type, $0.price.query.product.id,
                        $0.price.query.territory, $0.price.customerPrice, $0.price.pricePoint, $0.recordedAt.text,
                    ] as [Any]
                })
            try await tx.query(
                """
                INSERT INTO price_points (id, campaign, product_type, product_id, territory, customer_price,
                    price_point, recorded_at)
                OVERRIDING SYSTEM VALUE
                SELECT (e->>0)::bigint, e->>1, e->>2, e->>3, e->>4, e->>5, e->>6, (e->>7)::timestamptz
                FROM json_array_elements(\(rows)::json) AS e
                """)
        }
    }

    /// `value` as JSON text, written by Foundation's `JSONSerialization`.
    private static func json(_ value: [Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self)
    }
}
