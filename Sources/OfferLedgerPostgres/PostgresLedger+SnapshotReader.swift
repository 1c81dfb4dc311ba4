import Foundation
import OfferCodes
import PostgresNIO

extension PostgresLedger: LedgerSnapshotReader {
    /// The ledger's URL without its password.
    package var copyName: String { description }

    /// Streams every row into `sink` from one `REPEATABLE READ READ ONLY` transaction (one
    /// snapshot; it takes no lock, so writers go on meanwhile); see
    /// ``LedgerSnapshotReader/streamSnapshot(into:)``. Codes, assignments and App Store Connect
    /// resources come ``LedgerCopy/chunkSize`` rows per round trip, by key (`seq`, `id`) rather than
    /// by offset.
    package func streamSnapshot(into sink: any LedgerRowSink) throws {
        let label = label
        try transaction(.read, "read the ledger to copy it") { session in
            let reader = PostgresSnapshot(session: session, label: label)
            try sink.apps(reader.apps())
            try sink.campaigns(reader.campaigns())
            try sink.offers(reader.offers())
            let batches = try reader.batches()
            try sink.batches(batches)
            for batch in batches { try reader.codes(of: batch, into: sink) }
            try reader.assignments(into: sink)
            try reader.connectResources(into: sink)
        }
    }
}

/// The copy's reads of a PostgreSQL ledger, inside its read transaction.
private struct PostgresSnapshot {
    let session: PostgresSession
    let label: String

    func apps() throws -> [LedgerRow.App] {
        try session.query("SELECT id, app_apple_id FROM apps ORDER BY id").map { row in
            let (id, appAppleId) = try row.decode((Int64, String).self)
            return LedgerRow.App(id: id, appAppleId: appAppleId)
        }
    }

    func campaigns() throws -> [LedgerRow.Campaign] {
        try session.query(
            """
            SELECT seq, name, app_id, bundle_id,
                to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
            FROM campaigns ORDER BY seq
            """
        ).map { row in
            let (order, name, appId, bundleId, time) = try row.decode((Int64, String, Int64, String, String).self)
            return LedgerRow.Campaign(
                order: order, name: name, appId: appId, bundleId: bundleId,
                recordedAt: try timestamp(time, "campaigns.recorded_at"))
        }
    }

    func offers() throws -> [LedgerRow.Offer] {
        try session.query(
            """
            SELECT seq, campaign, name, product_type, product_asc_id, product_id, active FROM offers ORDER BY seq
            """
        ).map { row in
            let (order, campaign, name, productType, productAscId, productId, active) = try row.decode(
                (Int64, String, String, String, String, String, Bool).self)
            return LedgerRow.Offer(
                order: order, campaign: campaign, name: name, productType: productType, productAscId: productAscId,
                productId: productId, active: active)
        }
    }

    /// Every batch, through the ledger's checks (``PostgresStoredBatch``), with its `recorded_at`.
    func batches() throws -> [LedgerRow.Batch] {
        var times: [Int64: LedgerRow.Timestamp] = [:]
        for row in try session.query(
            """
            SELECT id, to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') FROM batches
            """)
        {
            let (id, time) = try row.decode((Int64, String).self)
            times[id] = try timestamp(time, "batches.recorded_at")
        }
        return try PostgresStoredBatch.fetchAll(session, label: label).map { stored in
            guard let time = times[stored.id] else {
                throw LedgerError.corrupt(path: label, reason: "batches row \(stored.id) changed while it was read")
            }
            return LedgerRow.Batch(
                id: stored.id, batch: stored.batch, storedCodes: stored.storedCodes, codesDigest: stored.codesDigest,
                recordedAt: time)
        }
    }

    /// Every code row of the batch, in `seq` order, one chunk per round trip.
    ///
    /// A chunk comes as one JSON array of keys (`json_agg`, parsed with Foundation's
    /// `JSONSerialization`: decoding a PostgreSQL array element by element cost about 3.6 s per
    /// million values in a debug build), plus what the rows have in common: the first `seq` when
    /// they are numbered without gaps, the app when it is the same for all, no codes as issued
    /// when every one equals its key (the usual case). Only a chunk that differs sends those
    /// columns too. The values are the rows' own either way, so the copy checks them (it refuses
    /// gaps and other apps).
    func codes(of batch: LedgerRow.Batch, into sink: any LedgerRowSink) throws {
        var after = Int64.min
        let limit = Int64(LedgerCopy.chunkSize)
        while true {
            let rows = try session.query(
                """
                SELECT count(*), min(seq), max(seq), min(app_id), max(app_id),
                    json_agg(code_key ORDER BY seq)::text,
                    CASE WHEN bool_or(code IS NOT NULL) THEN json_agg(code ORDER BY seq)::text END,
                    CASE WHEN max(seq) - min(seq) + 1 <> count(*) THEN array_agg(seq ORDER BY seq) END,
                    CASE WHEN min(app_id) <> max(app_id) THEN array_agg(app_id ORDER BY seq) END
                FROM (SELECT seq, app_id, code_key, code FROM codes WHERE batch_id = \(batch.id) AND seq > \(after)
                    ORDER BY seq LIMIT \(limit)) AS chunk
                """)
            guard let row = rows.first else { return }
            let (count, firstSeq, lastSeq, firstApp, _, keysJSON, codesJSON, seqs, apps) = try row.decode(
                (Int64, Int64?, Int64?, Int64?, Int64?, String?, String?, [Int64]?, [Int64]?).self)
            guard count > 0, let firstSeq, let lastSeq, let firstApp, let keysJSON else { return }
            let keys = try Self.strings(json: keysJSON, label: label)
            let codes = try codesJSON.map { try Self.strings(json: $0, label: label) }
            guard keys.count == Int(count), codes.map({ $0.count == keys.count }) ?? true,
                seqs.map({ $0.count == keys.count }) ?? true, apps.map({ $0.count == keys.count }) ?? true
            else {
                throw LedgerError.corrupt(path: label, reason: "the codes of batch \(batch.id) could not be read")
            }
            var chunk: [LedgerRow.Code] = []
            chunk.reserveCapacity(keys.count)
            for index in keys.indices {
                guard let key = keys[index] else {
                    throw LedgerError.corrupt(path: label, reason: "a code of batch \(batch.id) has no key")
                }
                chunk.append(
                    LedgerRow.Code(
                        seq: seqs?[index] ?? firstSeq + Int64(index), appId: apps?[index] ?? firstApp, key: key,
                        code: codes?[index]))
            }
            try sink.codes(chunk, of: batch)
            if count < limit { return }
            after = lastSeq
        }
    }

    /// The strings (or `null`s) of a JSON array.
    private static func strings(json: String, label: String) throws -> [String?] {
        guard let values = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any] else {
            throw LedgerError.corrupt(path: label, reason: "a chunk of codes could not be read")
        }
        return try values.map { value in
            if value is NSNull { return nil }
            guard let text = value as? String else {
                throw LedgerError.corrupt(path: label, reason: "a code is not text")
            }
            return text
        }
    }

    /// Every assignment, in recorded order, a chunk per round trip.
    ///
    /// A chunk comes as one JSON array of rows (`json_agg`), parsed with Foundation's
    /// `JSONSerialization`: decoding ten columns row by row cost about 90 µs per row in a debug
    /// build, the JSON text a small part of that. Every value keeps its exact text or number.
    func assignments(into sink: any LedgerRowSink) throws {
        var after = Int64.min
        let limit = Int64(LedgerCopy.chunkSize)
        while true {
            let rows = try session.query(
                """
                SELECT count(*), max(id), json_agg(json_build_array(id, batch_id, seq, campaign, offer, environment,
                    recipient, CASE WHEN shared THEN 1 ELSE 0 END, channel,
                    to_char(assigned_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')) ORDER BY id)::text
                FROM (SELECT * FROM assignments WHERE id > \(after) ORDER BY id LIMIT \(limit)) AS chunk
                """)
            guard let row = rows.first else { return }
            let (count, last, json) = try row.decode((Int64, Int64?, String?).self)
            guard count > 0, let last, let json else { return }
            let chunk = try Self.assignments(json: json, label: label)
            guard chunk.count == Int(count) else {
                throw LedgerError.corrupt(path: label, reason: "the assignments after id \(after) could not be read")
            }
            try sink.assignments(chunk)
            if count < limit { return }
            after = last
        }
    }

    /// The rows of a chunk of assignments, from their JSON array of arrays.
    private static func assignments(json: String, label: String) throws -> [LedgerRow.Assignment] {
        func unreadable(_ what: String) -> LedgerError {
            .corrupt(path: label, reason: "an assignments row could not be read (\(what))")
        }
        guard let rows = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[Any]] else {
            throw unreadable("not a list of rows")
        }
        return try rows.map { row in
            guard row.count == 10, let id = row[0] as? Int64, let batchId = row[1] as? Int64,
                let seq = row[2] as? Int64, let campaign = row[3] as? String, let offer = row[4] as? String,
                let environmentText = row[5] as? String, let recipient = row[6] as? String,
                let shared = row[7] as? Int64, let channelText = row[8] as? String, let time = row[9] as? String
            else { throw unreadable("a value of another type") }
            guard let environment = CodeEnvironment(rawValue: environmentText),
                let channel = AssignmentChannel(rawValue: channelText)
            else {
                throw LedgerError.corrupt(
                    path: label, reason: "assignments row \(id) names an unknown environment or channel")
            }
            guard let assignedAt = LedgerRow.Timestamp(time) else {
                throw LedgerError.corrupt(
                    path: label, reason: "a value in assignments.assigned_at is not a time OfferKit can copy")
            }
            return LedgerRow.Assignment(
                id: id, batchId: batchId, seq: seq, campaign: campaign, offer: offer, environment: environment,
                recipient: recipient, shared: shared == 1, channel: channel, assignedAt: assignedAt)
        }
    }

    /// Every App Store Connect resource, in `id` order (the plan's), a chunk per round trip, as
    /// one JSON array of rows (as the assignments come).
    func connectResources(into sink: any LedgerRowSink) throws {
        var after = Int64.min
        let limit = Int64(LedgerCopy.chunkSize)
        while true {
            let rows = try session.query(
                """
                SELECT count(*), max(id), json_agg(json_build_array(id, campaign, offer, kind, key, request_id,
                    resource_type, state, asc_id, body_digest, error,
                    to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')) ORDER BY id)::text
                FROM (SELECT * FROM connect_resources WHERE id > \(after) ORDER BY id LIMIT \(limit)) AS chunk
                """)
            guard let row = rows.first else { return }
            let (count, last, json) = try row.decode((Int64, Int64?, String?).self)
            guard count > 0, let last, let json else { return }
            let chunk = try Self.connectResources(json: json, label: label)
            guard chunk.count == Int(count) else {
                throw LedgerError.corrupt(
                    path: label, reason: "the App Store Connect resources after id \(after) could not be read")
            }
            try sink.connectResources(chunk)
            if count < limit { return }
            after = last
        }
    }

    /// The rows of a chunk of App Store Connect resources, from their JSON array of arrays.
    private static func connectResources(json: String, label: String) throws -> [LedgerRow.ConnectResource] {
        func unreadable(_ what: String) -> LedgerError {
            .corrupt(path: label, reason: "a connect_resources row could not be read (\(what))")
        }
        func optional(_ value: Any) throws -> String? {
            if value is NSNull { return nil }
            guard let text = value as? String else { throw unreadable("a value of another type") }
            return text
        }
        guard let rows = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[Any]] else {
            throw unreadable("not a list of rows")
        }
        return try rows.map { row in
            guard row.count == 12, let id = row[0] as? Int64, let campaign = row[1] as? String,
                let offer = row[2] as? String, let kindText = row[3] as? String, let key = row[4] as? String,
                let requestId = row[5] as? String, let resourceType = row[6] as? String,
                let stateText = row[7] as? String, let bodyDigest = row[9] as? String, let time = row[11] as? String
            else { throw unreadable("a value of another type") }
            guard let kind = ConnectResource.Kind(rawValue: kindText),
                let state = ConnectResource.State(rawValue: stateText)
            else {
                throw LedgerError.corrupt(
                    path: label, reason: "connect_resources row \(id) names a kind or state OfferKit does not write")
            }
            guard let updatedAt = LedgerRow.Timestamp(time) else {
                throw LedgerError.corrupt(
                    path: label, reason: "a value in connect_resources.updated_at is not a time OfferKit can copy")
            }
            return LedgerRow.ConnectResource(
                id: id, campaign: campaign, offer: offer, kind: kind, key: key, requestId: requestId,
                resourceType: resourceType, state: state, ascId: try optional(row[8]), bodyDigest: bodyDigest,
                error: try optional(row[10]), updatedAt: updatedAt)
        }
    }

    private func timestamp(_ text: String, _ column: String) throws -> LedgerRow.Timestamp {
        guard let time = LedgerRow.Timestamp(text) else {
            throw LedgerError.corrupt(path: label, reason: "a value in \(column) is not a time OfferKit can copy")
        }
        return time
    }
}
