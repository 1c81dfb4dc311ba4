import OfferCodes
import PostgresNIO

extension PostgresLedger {
    /// What the ledger holds for an app, leaving out one campaign; see
    /// `CodeLedger.summary(appAppleId:quarter:excludingCampaign:)`. Active offer names come in
    /// the order their campaigns and offers were first recorded.
    public func summary(appAppleId: String, quarter: String, excludingCampaign: String) throws -> LedgerSummary {
        let label = label
        return try transaction(.read, "summarize app \(appAppleId)") { session in
            var summary = LedgerSummary()
            summary.activeOfferNames = try session.query(
                """
                SELECT o.name FROM offers o JOIN campaigns c ON c.name = o.campaign JOIN apps a ON a.id = c.app_id
                WHERE a.app_apple_id = \(appAppleId) AND c.name <> \(excludingCampaign) AND o.active
                ORDER BY c.seq, o.seq
                """
            ).map { try $0.decode(String.self) }
            let totals = try Self.quarterTotals(
                session, label: label, appAppleId: appAppleId, quarter: quarter, excludingCampaign: excludingCampaign)
            summary.productionCodes = totals[.production] ?? 0
            summary.sandboxCodes = totals[.sandbox] ?? 0
            return summary
        }
    }

    /// The redemptions the app's batches count in `quarter`, by environment, leaving out one
    /// campaign; every batch is read and checked, as in the SQLite ledger.
    static func quarterTotals(
        _ session: PostgresSession, label: String, appAppleId: String, quarter: String, excludingCampaign: String?,
        batches: [PostgresStoredBatch]? = nil
    ) throws -> [CodeEnvironment: Int] {
        let campaigns = Set(
            try session.query(
                "SELECT c.name FROM campaigns c JOIN apps a ON a.id = c.app_id WHERE a.app_apple_id = \(appAppleId)"
            ).map { try $0.decode(String.self) })
        var totals: [CodeEnvironment: Int] = [:]
        for stored in try batches ?? PostgresStoredBatch.fetchAll(session, label: label) {
            let batch = stored.batch
            guard batch.quarter == quarter, campaigns.contains(batch.campaign), batch.campaign != excludingCampaign
            else { continue }
            let (sum, overflow) = (totals[batch.environment] ?? 0).addingReportingOverflow(batch.redemptions)
            guard !overflow else {
                throw LedgerError.corrupt(
                    path: label,
                    reason: "the codes recorded for app \(appAppleId) in \(quarter) add up to more than "
                        + "\(ProblemText.grouped(Int.max))")
            }
            totals[batch.environment] = sum
        }
        return totals
    }

    /// Which of `codes` other campaigns of the app issued, upper-cased; see
    /// `CodeLedger.issuedCodes(appAppleId:among:excludingCampaign:)`.
    public func issuedCodes(appAppleId: String, among codes: [String], excludingCampaign: String) throws -> Set<
        String
    > {
        let keys = codes.map { CodeInserter.key($0).text }
        return try transaction(.read, "look up issued codes of app \(appAppleId)") { session in
            var issued = Set<String>()
            var start = 0
            while start < keys.count {
                let chunk = Array(keys[start..<min(start + Self.insertChunk, keys.count)])
                start += chunk.count
                let rows = try session.query(
                    """
                    SELECT DISTINCT c.code_key FROM codes c JOIN apps a ON a.id = c.app_id
                    JOIN batches b ON b.id = c.batch_id
                    WHERE a.app_apple_id = \(appAppleId) AND c.code_key = ANY(\(chunk)::text[])
                        AND b.campaign <> \(excludingCampaign)
                    """)
                for row in rows { issued.insert(try row.decode(String.self)) }
            }
            return issued
        }
    }

    /// The batches of a campaign, in the order they were recorded.
    public func batches(campaign: String) throws -> [LedgerBatch] {
        let label = label
        return try transaction(.read, "list the batches of campaign \"\(campaign)\"") { session in
            try PostgresStoredBatch.fetchAll(session, label: label).filter { $0.batch.campaign == campaign }.map(
                \.batch)
        }
    }

    /// Calls `body` with every code of a campaign (optionally of one offer): batch by batch in the
    /// order they were recorded, each batch's codes in the order they were inserted, read from one
    /// snapshot a chunk at a time, never all at once. Each batch's codes are checked against the
    /// count and digest recorded with them: when they differ, this throws
    /// `LedgerError.corrupt(path:reason:)` after `body` has seen some of them.
    public func forEachCode(campaign: String, offer: String?, _ body: (IssuedCode) throws -> Void) throws {
        let label = label
        try transaction(.read, "read the codes of campaign \"\(campaign)\"") { session in
            let batches = try PostgresStoredBatch.fetchAll(session, label: label).filter {
                $0.batch.campaign == campaign && (offer == nil || $0.batch.offer == offer)
            }
            for stored in batches {
                let batch = stored.batch
                var issued = IssuedCode(
                    code: "", offer: batch.offer, kind: batch.kind, batchIndex: batch.index,
                    redemptionLimit: batch.redemptionLimit, expirationDate: batch.expirationDate,
                    environment: batch.environment)
                try stored.forEachCode(session, label: label) { code in
                    issued.code = code
                    try body(issued)
                }
            }
        }
    }

    /// Checks what the ledger can check of itself: every batch row against its checksum, and
    /// with `thorough`, every batch's codes against the count and digest recorded with them (it
    /// reads every code). PostgreSQL keeps its own pages and indexes consistent; the server's
    /// `amcheck` extension checks them further.
    ///
    /// - Throws: `LedgerError.corrupt(path:reason:)` with the first problem found.
    public func checkIntegrity(thorough: Bool = false) throws {
        let label = label
        try transaction(.read, "check the ledger's integrity") { session in
            let batches = try PostgresStoredBatch.fetchAll(session, label: label)
            guard thorough else { return }
            for stored in batches { try stored.forEachCode(session, label: label) { _ in } }
        }
    }
}
