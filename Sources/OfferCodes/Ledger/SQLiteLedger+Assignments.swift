import Foundation
import GRDB

extension SQLiteLedger {
    /// Hands out codes in one transaction; see ``CodeLedger/assign(recipients:scope:channel:_:)``.
    /// The transaction holds the file's write lock from its first read, so no other process
    /// assigns (or records) in between.
    public func assign(
        recipients: [String], scope: AssignmentScope, channel: AssignmentChannel,
        _ body: (CodeAssignment) throws -> Void
    ) throws {
        let label = path ?? Self.memoryLabel
        try write("hand out codes of offer \"\(scope.offer)\" in campaign \"\(scope.campaign)\"") { db in
            let store = SQLiteAssignmentStore(db: db, path: label)
            var run = try AssignmentRun(
                store: store, scope: scope, channel: channel, batches: try Self.assignableBatches(db, path: label))
            try run.assign(recipients, body)
        }
    }

    /// See ``CodeLedger/lookUpAssignments(recipients:scope:_:)``.
    public func lookUpAssignments(
        recipients: [String], scope: AssignmentScope, _ body: (String, CodeAssignment?) throws -> Void
    ) throws {
        let label = path ?? Self.memoryLabel
        try read("look up the codes handed out for offer \"\(scope.offer)\" in campaign \"\(scope.campaign)\"") { db in
            let store = SQLiteAssignmentStore(db: db, path: label)
            let batches = Dictionary(
                try Self.assignableBatches(db, path: label).map { ($0.id, $0.batch) }, uniquingKeysWith: { a, _ in a })
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

    /// See ``CodeLedger/forEachAssignment(campaign:offer:_:)``.
    public func forEachAssignment(campaign: String, offer: String?, _ body: (CodeAssignment) throws -> Void) throws {
        let label = path ?? Self.memoryLabel
        try read("read the codes handed out in campaign \"\(campaign)\"") { db in
            let batches = Dictionary(
                try Self.assignableBatches(db, path: label).map { ($0.id, $0.batch) }, uniquingKeysWith: { a, _ in a })
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT a.recipient, a.batch_id, a.seq, COALESCE(c.code, c.code_key), a.channel, a.assigned_at
                    FROM assignments a JOIN codes c ON c.batch_id = a.batch_id AND c.seq = a.seq
                    WHERE a.campaign = ? AND (? IS NULL OR a.offer = ?) ORDER BY a.id
                    """,
                arguments: [campaign, offer, offer])
            var dates = DateCache()
            while let row = try rows.next() {
                let (recipient, stored) = try SQLiteAssignmentStore.decode(row, path: label, dates: &dates)
                try body(
                    try CodeAssignment(recipient, campaign: campaign, stored: stored, batches: batches, path: label))
            }
        }
    }

    /// See ``CodeLedger/status(campaign:today:)``.
    public func status(campaign: String, today: CalendarDate) throws -> CampaignStatus {
        let label = path ?? Self.memoryLabel
        let app = try read("read the status of campaign \"\(campaign)\"") { db -> CampaignApp? in
            let sql =
                "SELECT a.app_apple_id, c.bundle_id FROM campaigns c JOIN apps a ON a.id = c.app_id WHERE c.name = ?"
            guard let row = try Row.fetchOne(db, sql: sql, arguments: [campaign]) else { return nil }
            guard case .string(let appAppleId) = (row[0] as DatabaseValue).storage,
                case .string(let bundleId) = (row[1] as DatabaseValue).storage
            else {
                throw LedgerError.corrupt(
                    path: label, reason: "the app of campaign \(ProblemText.quoted(campaign)) is unreadable")
            }
            return CampaignApp(bundleId: bundleId, appAppleId: appAppleId)
        }
        guard let app else { throw LedgerError.unknownCampaign(campaign: campaign) }
        // The summary reads in a transaction of its own; the rest of the status in one snapshot.
        let summary = try self.summary(appAppleId: app.appAppleId, quarter: today.quarter, excludingCampaign: "")
        return try read("read the status of campaign \"\(campaign)\"") { db in
            var offers: [(name: String, active: Bool)] = []
            let offerRows = try Row.fetchCursor(
                db, sql: "SELECT name, active FROM offers WHERE campaign = ? ORDER BY rowid", arguments: [campaign])
            while let row = try offerRows.next() {
                guard case .string(let name) = (row[0] as DatabaseValue).storage,
                    case .int64(let active) = (row[1] as DatabaseValue).storage, active == 0 || active == 1
                else {
                    throw LedgerError.corrupt(
                        path: label, reason: "an offer of campaign \(ProblemText.quoted(campaign)) is unreadable")
                }
                offers.append((name, active == 1))
            }
            var counts: [Int64: (personal: Int, shared: Int)] = [:]
            let countRows = try Row.fetchCursor(
                db,
                sql: "SELECT batch_id, shared, COUNT(*) FROM assignments WHERE campaign = ? GROUP BY batch_id, shared",
                arguments: [campaign])
            while let row = try countRows.next() {
                guard case .int64(let batch) = (row[0] as DatabaseValue).storage,
                    case .int64(let shared) = (row[1] as DatabaseValue).storage,
                    case .int64(let count) = (row[2] as DatabaseValue).storage, let count = Int(exactly: count)
                else {
                    throw LedgerError.corrupt(path: label, reason: "an assignment row is unreadable")
                }
                if shared == 1 {
                    counts[batch, default: (0, 0)].shared = count
                } else {
                    counts[batch, default: (0, 0)].personal = count
                }
            }
            return CampaignStatus(
                campaign: campaign, app: app, offers: offers,
                batches: try Self.assignableBatches(db, path: label), assignments: counts, summary: summary,
                today: today)
        }
    }

    /// Every batch of the ledger, checked, as assignment reads them.
    static func assignableBatches(_ db: Database, path: String) throws -> [AssignableBatch] {
        try StoredBatch.fetchAll(db, path: path).map {
            AssignableBatch(id: $0.id, batch: $0.batch, storedCodes: $0.storedCodes)
        }
    }
}

/// The assignment queries on SQLite, inside the caller's transaction.
private struct SQLiteAssignmentStore: AssignmentStore {
    let db: Database
    let path: String

    func offerActive(campaign: String, offer: String) throws -> Bool? {
        guard
            let active = try SQLiteLedger.fetchInteger(
                db, path: path, "offers.active", sql: "SELECT active FROM offers WHERE campaign = ? AND name = ?",
                arguments: [campaign, offer])
        else { return nil }
        return active == 1
    }

    func existing(_ recipients: [String], scope: AssignmentScope) throws -> [String: StoredAssignment] {
        let statement = try db.cachedStatement(
            sql: """
                SELECT a.recipient, a.batch_id, a.seq, COALESCE(c.code, c.code_key), a.channel, a.assigned_at
                FROM assignments a JOIN codes c ON c.batch_id = a.batch_id AND c.seq = a.seq
                WHERE a.campaign = ? AND a.offer = ? AND a.environment = ? AND a.recipient = ?
                """)
        var found: [String: StoredAssignment] = [:]
        var dates = DateCache()
        for recipient in recipients {
            guard
                let row = try Row.fetchOne(
                    statement, arguments: [scope.campaign, scope.offer, scope.environment.rawValue, recipient])
            else { continue }
            found[recipient] = try Self.decode(row, path: path, dates: &dates).1
        }
        return found
    }

    func freeCodes(batchId: Int64, limit: Int) throws -> [(seq: Int64, code: String)] {
        let last = try SQLiteLedger.fetchInteger(
            db, path: path, "assignments.seq",
            sql: "SELECT seq FROM assignments WHERE batch_id = ? AND shared = 0 ORDER BY seq DESC LIMIT 1",
            arguments: [batchId])
        return try codes(batchId: batchId, after: last, limit: limit)
    }

    func personalAssigned(batchId: Int64) throws -> Int {
        Int(
            try SQLiteLedger.fetchInteger(
                db, path: path, "assignments",
                sql: "SELECT COUNT(*) FROM assignments WHERE batch_id = ? AND shared = 0", arguments: [batchId]) ?? 0)
    }

    func sharedRecipients(batchId: Int64) throws -> [Int64: Int] {
        var counts: [Int64: Int] = [:]
        let rows = try Row.fetchCursor(
            db, sql: "SELECT seq, COUNT(*) FROM assignments WHERE batch_id = ? AND shared = 1 GROUP BY seq",
            arguments: [batchId])
        while let row = try rows.next() {
            guard case .int64(let seq) = (row[0] as DatabaseValue).storage,
                case .int64(let count) = (row[1] as DatabaseValue).storage
            else { throw LedgerError.corrupt(path: path, reason: "an assignment row is unreadable") }
            counts[seq] = Int(count)
        }
        return counts
    }

    func codes(batchId: Int64, after seq: Int64?, limit: Int) throws -> [(seq: Int64, code: String)] {
        let statement = try db.cachedStatement(
            sql: "SELECT seq, COALESCE(code, code_key) FROM codes WHERE batch_id = ? AND seq > ? ORDER BY seq LIMIT ?")
        let rows = try Row.fetchCursor(statement, arguments: [batchId, seq ?? -1, limit])
        var codes: [(seq: Int64, code: String)] = []
        while let row = try rows.next() {
            guard case .int64(let seq) = (row[0] as DatabaseValue).storage,
                case .string(let code) = (row[1] as DatabaseValue).storage
            else { throw LedgerError.corrupt(path: path, reason: "a code row is unreadable") }
            codes.append((seq, code))
        }
        return codes
    }

    func insert(_ assignments: [NewAssignment], scope: AssignmentScope) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO assignments (batch_id, seq, campaign, offer, environment, recipient, shared, channel,
                    assigned_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        var lastDate: (Date, String)?
        for assignment in assignments {
            let text: String
            if let lastDate, lastDate.0 == assignment.assignedAt {
                text = lastDate.1
            } else {
                text = LedgerTimestamp.text(assignment.assignedAt)
                lastDate = (assignment.assignedAt, text)
            }
            try statement.execute(arguments: [
                assignment.batchId, assignment.seq, scope.campaign, scope.offer, scope.environment.rawValue,
                assignment.recipient, assignment.shared ? 1 : 0, assignment.channel.rawValue, text,
            ])
        }
    }

    /// A row of `recipient, batch_id, seq, code, channel, assigned_at`.
    static func decode(_ row: Row, path: String, dates: inout DateCache) throws -> (String, StoredAssignment) {
        guard case .string(let recipient) = (row[0] as DatabaseValue).storage,
            case .int64(let batch) = (row[1] as DatabaseValue).storage,
            case .int64(let seq) = (row[2] as DatabaseValue).storage,
            case .string(let code) = (row[3] as DatabaseValue).storage,
            case .string(let channelText) = (row[4] as DatabaseValue).storage,
            let channel = AssignmentChannel(rawValue: channelText),
            case .string(let dateText) = (row[5] as DatabaseValue).storage, let date = dates.date(dateText)
        else {
            throw LedgerError.corrupt(
                path: path, reason: "an assignment row has a value of another type than OfferKit wrote, or is NULL")
        }
        return (recipient, StoredAssignment(batchId: batch, seq: seq, code: code, channel: channel, assignedAt: date))
    }
}
