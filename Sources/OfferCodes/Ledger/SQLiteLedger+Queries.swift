import GRDB

extension SQLiteLedger {
    /// What the ledger holds for an app, leaving out one campaign; see
    /// ``CodeLedger/summary(appAppleId:quarter:excludingCampaign:)``.
    ///
    /// Active offer names come in the order their campaigns and offers were first recorded.
    public func summary(appAppleId: String, quarter: String, excludingCampaign: String) throws -> LedgerSummary {
        let label = path ?? Self.memoryLabel
        return try read("summarize app \(appAppleId)") { db in
            var summary = LedgerSummary()
            summary.activeOfferNames = try Self.fetchTexts(
                db, path: label, "offers.name",
                sql: """
                    SELECT o.name FROM offers o JOIN campaigns c ON c.name = o.campaign JOIN apps a ON a.id = c.app_id
                    WHERE a.app_apple_id = ? AND c.name <> ? AND o.active = 1
                    ORDER BY c.rowid, o.rowid
                    """,
                arguments: [appAppleId, excludingCampaign])
            let totals = try Self.quarterTotals(
                db, path: label, appAppleId: appAppleId, quarter: quarter, excludingCampaign: excludingCampaign)
            summary.productionCodes = totals[.production] ?? 0
            summary.sandboxCodes = totals[.sandbox] ?? 0
            return summary
        }
    }

    /// The redemptions the app's batches count in `quarter`, by environment, leaving out one
    /// campaign. Every batch of the ledger is read and checked (``StoredBatch``; pass them when
    /// they are read already), so a damaged row cannot drop out of the sum unnoticed.
    static func quarterTotals(
        _ db: Database, path: String, appAppleId: String, quarter: String, excludingCampaign: String?,
        batches: [StoredBatch]? = nil
    ) throws -> [CodeEnvironment: Int] {
        let campaigns = Set(
            try fetchTexts(
                db, path: path, "campaigns.name",
                sql: "SELECT c.name FROM campaigns c JOIN apps a ON a.id = c.app_id WHERE a.app_apple_id = ?",
                arguments: [appAppleId]))
        var totals: [CodeEnvironment: Int] = [:]
        for stored in try batches ?? StoredBatch.fetchAll(db, path: path) {
            let batch = stored.batch
            guard batch.quarter == quarter, campaigns.contains(batch.campaign), batch.campaign != excludingCampaign
            else { continue }
            let (sum, overflow) = (totals[batch.environment] ?? 0).addingReportingOverflow(batch.redemptions)
            guard !overflow else {
                throw LedgerError.corrupt(
                    path: path,
                    reason: "the codes recorded for app \(appAppleId) in \(quarter) add up to more than "
                        + "\(ProblemText.grouped(Int.max))")
            }
            totals[batch.environment] = sum
        }
        return totals
    }

    /// Which of `codes` other campaigns of the app issued, upper-cased; see
    /// ``CodeLedger/issuedCodes(appAppleId:among:excludingCampaign:)``.
    ///
    /// The answer comes from the unique index on the codes (as does the refusal of a taken code
    /// when recording): ``checkIntegrity(thorough:)`` with `thorough` checks that the index
    /// matches the codes table, which the quick check at opening does not.
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
        let label = path ?? Self.memoryLabel
        return try read("list the batches of campaign \"\(campaign)\"") { db in
            try StoredBatch.fetchAll(db, path: label).filter { $0.batch.campaign == campaign }.map(\.batch)
        }
    }

    /// Calls `body` with every code of a campaign (optionally of one offer): batch by batch in the
    /// order they were recorded, each batch's codes in the order they were inserted. Reads the
    /// codes with a cursor, never all at once. `body` must not call this ledger.
    ///
    /// Each batch's codes are checked against the count and digest recorded with them once the
    /// batch is read: when they differ, this throws ``LedgerError/corrupt(path:reason:)`` after
    /// `body` has seen some of them, so discard what `body` produced.
    public func forEachCode(campaign: String, offer: String?, _ body: (IssuedCode) throws -> Void) throws {
        let label = path ?? Self.memoryLabel
        try read("read the codes of campaign \"\(campaign)\"") { db in
            let statement = try StoredBatch.codesStatement(db)
            let batches = try StoredBatch.fetchAll(db, path: label).filter {
                $0.batch.campaign == campaign && (offer == nil || $0.batch.offer == offer)
            }
            for stored in batches {
                let batch = stored.batch
                var issued = IssuedCode(
                    code: "", offer: batch.offer, kind: batch.kind, batchIndex: batch.index,
                    redemptionLimit: batch.redemptionLimit, expirationDate: batch.expirationDate,
                    environment: batch.environment)
                try stored.forEachCode(statement, path: label) { code in
                    issued.code = code
                    try body(issued)
                }
            }
        }
    }
}
