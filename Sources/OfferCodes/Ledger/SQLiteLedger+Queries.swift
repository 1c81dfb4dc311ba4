import GRDB

extension SQLiteLedger {
    /// What the ledger holds for an app, leaving out one campaign; see
    /// ``CodeLedger/summary(appAppleId:quarter:excludingCampaign:)``.
    ///
    /// Active offer names come in the order their campaigns and offers were first recorded.
    public func summary(appAppleId: String, quarter: String, excludingCampaign: String) throws -> LedgerSummary {
        try read("summarize app \(appAppleId)") { db in
            var summary = LedgerSummary()
            summary.activeOfferNames = try String.fetchAll(
                db,
                sql: """
                    SELECT o.name FROM offers o JOIN campaigns c ON c.name = o.campaign JOIN apps a ON a.id = c.app_id
                    WHERE a.app_apple_id = ? AND c.name <> ? AND o.active = 1
                    ORDER BY c.rowid, o.rowid
                    """,
                arguments: [appAppleId, excludingCampaign])
            let totals = try Row.fetchAll(
                db,
                sql: """
                    SELECT b.environment, SUM(b.code_count * b.redemption_limit)
                    FROM batches b JOIN campaigns c ON c.name = b.campaign JOIN apps a ON a.id = c.app_id
                    WHERE a.app_apple_id = ? AND c.name <> ? AND b.quarter = ?
                    GROUP BY b.environment
                    """,
                arguments: [appAppleId, excludingCampaign, quarter])
            for row in totals {
                let total = row[1] as Int? ?? 0
                switch row[0] as String? {
                case CodeEnvironment.production.rawValue: summary.productionCodes = total
                case CodeEnvironment.sandbox.rawValue: summary.sandboxCodes = total
                default: break
                }
            }
            return summary
        }
    }

    /// Which of `codes` other campaigns of the app issued, upper-cased; see
    /// ``CodeLedger/issuedCodes(appAppleId:among:excludingCampaign:)``.
    public func issuedCodes(appAppleId: String, among codes: [String], excludingCampaign: String) throws -> Set<
        String
    > {
        try read("look up issued codes of app \(appAppleId)") { db in
            var issued = Set<String>()
            guard
                let appId = try Int64.fetchOne(
                    db, sql: "SELECT id FROM apps WHERE app_apple_id = ?", arguments: [appAppleId])
            else { return issued }
            let statement = try db.makeStatement(
                sql: """
                    SELECT EXISTS (
                        SELECT 1 FROM codes c JOIN batches b ON b.id = c.batch_id
                        WHERE c.app_id = ? AND c.code_key = ? AND b.campaign <> ?)
                    """)
            for code in codes {
                let key = CodeInserter.key(code).text
                if try Bool.fetchOne(statement, arguments: [appId, key, excludingCampaign]) == true {
                    issued.insert(key)
                }
            }
            return issued
        }
    }

    /// The batches of a campaign, in the order they were recorded.
    public func batches(campaign: String) throws -> [LedgerBatch] {
        try read("list the batches of campaign \"\(campaign)\"") { db in
            try Self.storedBatches(db, campaign: campaign, offer: nil).map(\.batch)
        }
    }

    /// Calls `body` with every code of a campaign (optionally of one offer): batch by batch in the
    /// order they were recorded, each batch's codes in the order they were inserted. Reads the
    /// codes with a cursor, never all at once. `body` must not call this ledger.
    public func forEachCode(campaign: String, offer: String?, _ body: (IssuedCode) throws -> Void) throws {
        try read("read the codes of campaign \"\(campaign)\"") { db in
            let statement = try db.makeStatement(
                sql: "SELECT COALESCE(code, code_key) FROM codes WHERE batch_id = ? ORDER BY seq")
            for (id, batch) in try Self.storedBatches(db, campaign: campaign, offer: offer) {
                var issued = IssuedCode(
                    code: "", offer: batch.offer, kind: batch.kind, batchIndex: batch.index,
                    redemptionLimit: batch.redemptionLimit, expirationDate: batch.expirationDate,
                    environment: batch.environment)
                let codes = try String.fetchCursor(statement, arguments: [id])
                while let code = try codes.next() {
                    issued.code = code
                    try body(issued)
                }
            }
        }
    }

    private static func storedBatches(
        _ db: Database, campaign: String, offer: String?
    ) throws -> [(id: Int64, batch: LedgerBatch)] {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT id, offer, kind, idx, quarter, redemption_limit, code_count, expiration_date, environment
                FROM batches WHERE campaign = ?1 AND (?2 IS NULL OR offer = ?2) ORDER BY id
                """,
            arguments: [campaign, offer])
        var batches: [(id: Int64, batch: LedgerBatch)] = []
        while let row = try rows.next() {
            let kindText: String = try value(row, 2, "kind")
            guard let kind = LedgerBatch.Kind(rawValue: kindText) else {
                throw LedgerError.unreadableValue(table: "batches", column: "kind", value: kindText)
            }
            let environmentText: String = try value(row, 8, "environment")
            guard let environment = CodeEnvironment(rawValue: environmentText) else {
                throw LedgerError.unreadableValue(table: "batches", column: "environment", value: environmentText)
            }
            var expirationDate: CalendarDate?
            if let dateText: String = try optionalValue(row, 7, "expiration_date") {
                guard let date = CalendarDate(dateText) else {
                    throw LedgerError.unreadableValue(table: "batches", column: "expiration_date", value: dateText)
                }
                expirationDate = date
            }
            let batch = LedgerBatch(
                campaign: campaign, offer: try value(row, 1, "offer"), kind: kind, index: try value(row, 3, "idx"),
                quarter: try value(row, 4, "quarter"), redemptionLimit: try value(row, 5, "redemption_limit"),
                codeCount: try value(row, 6, "code_count"), expirationDate: expirationDate, environment: environment)
            batches.append((try value(row, 0, "id"), batch))
        }
        return batches
    }

    /// Column `index` of a `batches` row, or ``LedgerError/unreadableValue(table:column:value:)``
    /// when it does not hold a `T` (a ledger edited by hand).
    private static func value<T: DatabaseValueConvertible>(_ row: Row, _ index: Int, _ column: String) throws -> T {
        let stored: DatabaseValue = row[index]
        guard let value = T.fromDatabaseValue(stored) else {
            let text = String.fromDatabaseValue(stored) ?? stored.description
            throw LedgerError.unreadableValue(table: "batches", column: column, value: text)
        }
        return value
    }

    /// Column `index` of a `batches` row that may be `NULL`.
    private static func optionalValue<T: DatabaseValueConvertible>(
        _ row: Row, _ index: Int, _ column: String
    ) throws -> T? {
        let stored: DatabaseValue = row[index]
        if stored.isNull { return nil }
        return try value(row, index, column) as T
    }
}
