import Foundation
import OfferCodes
import PostgresNIO

extension PostgresLedger {
    /// Hands out codes in one transaction that holds the offer's assignment lock (see
    /// ``PostgresLedger``); see `CodeLedger.assign(recipients:scope:channel:_:)`.
    public func assign(
        recipients: [String], scope: AssignmentScope, channel: AssignmentChannel,
        _ body: (CodeAssignment) throws -> Void
    ) throws {
        let label = label
        try transaction(
            .assignment(campaign: scope.campaign, offer: scope.offer),
            "hand out codes of offer \"\(scope.offer)\" in campaign \"\(scope.campaign)\""
        ) { session in
            let store = PostgresAssignmentStore(session: session, label: label)
            var run = try AssignmentRun(
                store: store, scope: scope, channel: channel,
                batches: try Self.assignableBatches(session, label: label))
            try run.assign(recipients, body)
        }
    }

    /// See `CodeLedger.lookUpAssignments(recipients:scope:_:)`.
    public func lookUpAssignments(
        recipients: [String], scope: AssignmentScope, _ body: (String, CodeAssignment?) throws -> Void
    ) throws {
        let label = label
        try transaction(
            .read, "look up the codes handed out for offer \"\(scope.offer)\" in campaign \"\(scope.campaign)\""
        ) { session in
            let store = PostgresAssignmentStore(session: session, label: label)
            let batches = Dictionary(
                try Self.assignableBatches(session, label: label).map { ($0.id, $0.batch) },
                uniquingKeysWith: { first, _ in first })
            var start = 0
            while start < recipients.count {
                let chunk = Array(recipients[start..<min(start + CodeAssignment.chunkSize, recipients.count)])
                start += chunk.count
                let known = try store.existing(Array(Set(chunk)), scope: scope)
                for recipient in chunk {
                    try body(
                        recipient,
                        try known[recipient].map {
                            try CodeAssignment(
                                recipient, campaign: scope.campaign, stored: $0, batches: batches, path: label)
                        })
                }
            }
        }
    }

    /// See `CodeLedger.forEachAssignment(campaign:offer:_:)`: read from one snapshot a chunk at
    /// a time.
    public func forEachAssignment(campaign: String, offer: String?, _ body: (CodeAssignment) throws -> Void) throws {
        let label = label
        try transaction(.read, "read the codes handed out in campaign \"\(campaign)\"") { session in
            let batches = Dictionary(
                try Self.assignableBatches(session, label: label).map { ($0.id, $0.batch) },
                uniquingKeysWith: { first, _ in first })
            var after: Int64 = 0
            while true {
                let rows = try session.query(
                    """
                    SELECT a.id, a.recipient, a.batch_id, a.seq, COALESCE(c.code, c.code_key), a.channel, a.assigned_at
                    FROM assignments a JOIN codes c ON c.batch_id = a.batch_id AND c.seq = a.seq
                    WHERE a.campaign = \(campaign) AND (\(offer)::text IS NULL OR a.offer = \(offer)) AND a.id > \(after)
                    ORDER BY a.id LIMIT \(Self.insertChunk)
                    """)
                for row in rows {
                    let (id, recipient, batchId, seq, code, channelText, date) = try row.decode(
                        (Int64, String, Int64, Int64, String, String, Date).self)
                    guard let channel = AssignmentChannel(rawValue: channelText) else {
                        throw LedgerError.corrupt(path: label, reason: "an assignment row names an unknown channel")
                    }
                    after = id
                    try body(
                        try CodeAssignment(
                            recipient, campaign: campaign,
                            stored: StoredAssignment(
                                batchId: batchId, seq: seq, code: code, channel: channel,
                                assignedAt: LedgerTimestamp.milliseconds(date)),
                            batches: batches, path: label))
                }
                if rows.count < Self.insertChunk { break }
            }
        }
    }

    /// See `CodeLedger.status(campaign:today:)`.
    public func status(campaign: String, today: CalendarDate) throws -> CampaignStatus {
        let label = label
        let app = try transaction(.read, "read the status of campaign \"\(campaign)\"") { session in
            try session.query(
                "SELECT a.app_apple_id, c.bundle_id FROM campaigns c JOIN apps a ON a.id = c.app_id WHERE c.name = \(campaign)"
            ).first.map { row in
                let (appAppleId, bundleId) = try row.decode((String, String).self)
                return CampaignApp(bundleId: bundleId, appAppleId: appAppleId)
            }
        }
        guard let app else { throw LedgerError.unknownCampaign(campaign: campaign) }
        let summary = try self.summary(appAppleId: app.appAppleId, quarter: today.quarter, excludingCampaign: "")
        return try transaction(.read, "read the status of campaign \"\(campaign)\"") { session in
            let offers = try session.query(
                "SELECT name, active FROM offers WHERE campaign = \(campaign) ORDER BY seq"
            ).map { row -> (name: String, active: Bool) in
                let (name, active) = try row.decode((String, Bool).self)
                return (name, active)
            }
            var counts: [Int64: (personal: Int, shared: Int)] = [:]
            for row in try session.query(
                "SELECT batch_id, shared, COUNT(*) FROM assignments WHERE campaign = \(campaign) GROUP BY batch_id, shared"
            ) {
                let (batch, shared, count) = try row.decode((Int64, Bool, Int64).self)
                if shared {
                    counts[batch, default: (0, 0)].shared = Int(count)
                } else {
                    counts[batch, default: (0, 0)].personal = Int(count)
                }
            }
            return CampaignStatus(
                campaign: campaign, app: app, offers: offers,
                batches: try Self.assignableBatches(session, label: label), assignments: counts, summary: summary,
                today: today)
        }
    }

    /// Every batch of the ledger, checked, as assignment reads them.
    static func assignableBatches(_ session: PostgresSession, label: String) throws -> [AssignableBatch] {
        try PostgresStoredBatch.fetchAll(session, label: label).map {
            AssignableBatch(id: $0.id, batch: $0.batch, storedCodes: $0.storedCodes)
        }
    }
}

/// The assignment queries on PostgreSQL, inside the caller's transaction: each answers a whole
/// chunk of recipients in one round trip.
private struct PostgresAssignmentStore: AssignmentStore {
    let session: PostgresSession
    let label: String

    func offerActive(campaign: String, offer: String) throws -> Bool? {
        try session.query("SELECT active FROM offers WHERE campaign = \(campaign) AND name = \(offer)").first.map {
            try $0.decode(Bool.self)
        }
    }

    func existing(_ recipients: [String], scope: AssignmentScope) throws -> [String: StoredAssignment] {
        guard !recipients.isEmpty else { return [:] }
        let rows = try session.query(
            """
            SELECT a.recipient, a.batch_id, a.seq, COALESCE(c.code, c.code_key), a.channel, a.assigned_at
            FROM assignments a JOIN codes c ON c.batch_id = a.batch_id AND c.seq = a.seq
            WHERE a.campaign = \(scope.campaign) AND a.offer = \(scope.offer)
                AND a.environment = \(scope.environment.rawValue) AND a.recipient = ANY(\(recipients)::text[])
            """)
        var found: [String: StoredAssignment] = [:]
        for row in rows {
            let (recipient, batchId, seq, code, channelText, date) = try row.decode(
                (String, Int64, Int64, String, String, Date).self)
            guard let channel = AssignmentChannel(rawValue: channelText) else {
                throw LedgerError.corrupt(path: label, reason: "an assignment row names an unknown channel")
            }
            found[recipient] = StoredAssignment(
                batchId: batchId, seq: seq, code: code, channel: channel, assignedAt: LedgerTimestamp.milliseconds(date)
            )
        }
        return found
    }

    func freeCodes(batchId: Int64, limit: Int) throws -> [(seq: Int64, code: String)] {
        // One round trip: the last personal assignment (the partial index, read backwards) and
        // the codes after it.
        try session.query(
            """
            SELECT seq, COALESCE(code, code_key) FROM codes WHERE batch_id = \(batchId)
                AND seq > COALESCE(
                    (SELECT max(seq) FROM assignments WHERE batch_id = \(batchId) AND NOT shared), -1)
            ORDER BY seq LIMIT \(Int64(limit))
            """
        ).map { row in
            let (seq, code) = try row.decode((Int64, String).self)
            return (seq, code)
        }
    }

    func personalAssigned(batchId: Int64) throws -> Int {
        Int(
            try session.query("SELECT COUNT(*) FROM assignments WHERE batch_id = \(batchId) AND NOT shared").first
                .map { try $0.decode(Int64.self) } ?? 0)
    }

    func sharedRecipients(batchId: Int64) throws -> [Int64: Int] {
        var counts: [Int64: Int] = [:]
        for row in try session.query(
            "SELECT seq, COUNT(*) FROM assignments WHERE batch_id = \(batchId) AND shared GROUP BY seq")
        {
            let (seq, count) = try row.decode((Int64, Int64).self)
            counts[seq] = Int(count)
        }
        return counts
    }

    func codes(batchId: Int64, after seq: Int64?, limit: Int) throws -> [(seq: Int64, code: String)] {
        try session.query(
            """
            SELECT seq, COALESCE(code, code_key) FROM codes WHERE batch_id = \(batchId) AND seq > \(seq ?? -1)
            ORDER BY seq LIMIT \(Int64(limit))
            """
        ).map { row in
            let (seq, code) = try row.decode((Int64, String).self)
            return (seq, code)
        }
    }

    func insert(_ assignments: [NewAssignment], scope: AssignmentScope) throws {
        var start = 0
        while start < assignments.count {
            let chunk = assignments[start..<min(start + PostgresLedger.insertChunk, assignments.count)]
            start += chunk.count
            try session.query(
                """
                INSERT INTO assignments (batch_id, seq, campaign, offer, environment, recipient, shared, channel,
                    assigned_at)
                SELECT b, s, \(scope.campaign), \(scope.offer), \(scope.environment.rawValue), r, sh, c, t
                FROM UNNEST(\(chunk.map(\.batchId))::bigint[], \(chunk.map(\.seq))::bigint[],
                    \(chunk.map(\.recipient))::text[], \(chunk.map(\.shared))::boolean[],
                    \(chunk.map(\.channel.rawValue))::text[], \(chunk.map(\.assignedAt))::timestamptz[])
                    AS u(b, s, r, sh, c, t)
                """)
        }
    }
}
