import OfferCodes
import PostgresNIO

extension PostgresLedger {
    /// Records one batch of codes in one transaction; see `CodeLedger.recordBatch(_:campaign:insertCodes:)`
    /// and `SQLiteLedger.recordBatch(_:campaign:insertCodes:)`, whose checks and errors it shares.
    /// The transaction holds the ledger's write lock from its first read (see ``PostgresLedger``),
    /// so the limits it checks cannot change under it.
    @discardableResult
    public func recordBatch(
        _ batch: LedgerBatch, campaign: Campaign,
        insertCodes: (_ insert: (String) throws -> Bool) throws -> Void
    ) throws -> Bool {
        guard batch.campaign == campaign.name else {
            throw LedgerError.batchOfAnotherCampaign(batchCampaign: batch.campaign, campaign: campaign.name)
        }
        guard campaign.offers.contains(where: { $0.referenceName == batch.offer }) else {
            throw LedgerError.offerNotInCampaign(offer: batch.offer, campaign: campaign.name)
        }
        if let problem = SQLiteLedger.problem(with: batch) {
            throw LedgerError.invalidBatch(campaign: batch.campaign, offer: batch.offer, problem: problem)
        }
        let label = label
        let appAppleId = campaign.app.appAppleId
        return try transaction(.write, "record a batch of offer \"\(batch.offer)\" in campaign \"\(campaign.name)\"") {
            session in
            let recordedApp = try session.query(
                """
                SELECT a.app_apple_id FROM campaigns c JOIN apps a ON a.id = c.app_id WHERE c.name = \(campaign.name)
                """
            ).first.map { try $0.decode(String.self) }
            if let recordedApp, recordedApp != appAppleId {
                throw LedgerError.campaignRecordedForAnotherApp(
                    campaign: campaign.name, recordedAppAppleId: recordedApp, appAppleId: appAppleId)
            }
            let recordedBatches = try PostgresStoredBatch.fetchAll(session, label: label)
            if LedgerLimitCheck.isRecorded(batch, among: recordedBatches.map(\.batch)) { return false }
            let totals = try Self.quarterTotals(
                session, label: label, appAppleId: appAppleId, quarter: batch.quarter, excludingCampaign: nil,
                batches: recordedBatches)
            let recorded = totals[batch.environment] ?? 0
            try LedgerLimitCheck.checkQuarter(batch, appAppleId: appAppleId, recorded: recorded)
            let offersBefore = try Self.offerCount(session, campaign: campaign.name)
            let appId = try Self.upsert(campaign, session, label: label)
            if try Self.offerCount(session, campaign: campaign.name) > offersBefore {
                try LedgerLimitCheck.checkActiveOffers(
                    try Self.activeOffers(session, appAppleId: appAppleId), campaign: campaign.name,
                    appAppleId: appAppleId)
            }
            let batchId = try session.query(
                """
                INSERT INTO batches (campaign, offer, kind, idx, quarter, redemption_limit, code_count,
                    expiration_date, environment)
                VALUES (\(batch.campaign), \(batch.offer), \(batch.kind.rawValue), \(Int64(batch.index)),
                    \(batch.quarter), \(Int64(batch.redemptionLimit)), \(Int64(batch.codeCount)),
                    \(batch.expirationDate?.description), \(batch.environment.rawValue))
                RETURNING id
                """
            )[0].decode(Int64.self)
            let digest = try PostgresCodeInserter(
                session, appId: appId, batchId: batchId, campaign: campaign.name, offer: batch.offer
            ).run(insertCodes)
            try PostgresStoredBatch.seal(
                session, id: batchId, batch: batch, storedCodes: digest.count, codesDigest: digest.finalized())
            return true
        }
    }

    /// Attaches Apple's codes to a recorded one-time-use batch in one transaction; see
    /// `CodeLedger.attachCodes(toOneTimeUseBatch:offer:campaign:insertCodes:)`.
    public func attachCodes(
        toOneTimeUseBatch index: Int, offer: String, campaign: String,
        insertCodes: (_ insert: (String) throws -> Bool) throws -> Void
    ) throws {
        let label = label
        try transaction(
            .write, "attach codes to oneTimeUseCodes[\(index)] of offer \"\(offer)\" in campaign \"\(campaign)\""
        ) { session in
            let stored = try PostgresStoredBatch.fetchAll(session, label: label).first {
                $0.batch.campaign == campaign && $0.batch.offer == offer && $0.batch.kind == .oneTimeUse
                    && $0.batch.index == index
            }
            guard let stored else { throw LedgerError.unknownBatch(campaign: campaign, offer: offer, index: index) }
            guard
                let appId = try session.query("SELECT app_id FROM campaigns WHERE name = \(campaign)").first.map({
                    try $0.decode(Int64.self)
                })
            else {
                throw LedgerError.corrupt(
                    path: label, reason: "campaign \(ProblemText.quoted(campaign)) has batches but no row of its own")
            }
            let codeCount = Int(
                try session.query("SELECT count(*) FROM codes WHERE batch_id = \(stored.id)")[0].decode(Int64.self))
            guard codeCount == stored.storedCodes else {
                throw LedgerError.corrupt(
                    path: label,
                    reason: "\(StoredBatch.describe(stored.batch)) has \(ProblemText.grouped(codeCount)) codes in the "
                        + "ledger, but \(ProblemText.grouped(stored.storedCodes)) were recorded")
            }
            guard codeCount == 0 else {
                throw LedgerError.alreadyImported(campaign: campaign, offer: offer, index: index, codeCount: codeCount)
            }
            let digest = try PostgresCodeInserter(
                session, appId: appId, batchId: stored.id, campaign: campaign, offer: offer
            ).run(insertCodes)
            try PostgresStoredBatch.seal(
                session, id: stored.id, batch: stored.batch, storedCodes: digest.count,
                codesDigest: digest.finalized())
        }
    }

    /// Switches a recorded offer active or inactive; see
    /// `CodeLedger.setOfferActive(_:offer:campaign:)`.
    public func setOfferActive(_ active: Bool, offer: String, campaign: String) throws {
        let label = label
        try transaction(.write, "mark offer \"\(offer)\" of campaign \"\(campaign)\" \(active ? "active" : "inactive")")
        {
            session in
            let row = try session.query(
                """
                SELECT o.active, a.app_apple_id FROM offers o
                LEFT JOIN campaigns c ON c.name = o.campaign LEFT JOIN apps a ON a.id = c.app_id
                WHERE o.campaign = \(campaign) AND o.name = \(offer)
                """
            ).first
            guard let row else { throw LedgerError.unknownOffer(offer: offer, campaign: campaign) }
            let (current, appAppleId) = try row.decode((Bool, String?).self)
            guard let appAppleId else {
                throw LedgerError.corrupt(
                    path: label,
                    reason: "offer \(ProblemText.quoted(offer)) of campaign \(ProblemText.quoted(campaign)) has no "
                        + "readable app")
            }
            if active, !current {
                try LedgerLimitCheck.checkActiveOffers(
                    try Self.activeOffers(session, appAppleId: appAppleId) + 1, campaign: campaign,
                    appAppleId: appAppleId)
            }
            try session.query(
                "UPDATE offers SET active = \(active) WHERE campaign = \(campaign) AND name = \(offer)")
        }
    }

    private static func offerCount(_ session: PostgresSession, campaign: String) throws -> Int {
        Int(try session.query("SELECT count(*) FROM offers WHERE campaign = \(campaign)")[0].decode(Int64.self))
    }

    /// The app's active offers, in every campaign.
    private static func activeOffers(_ session: PostgresSession, appAppleId: String) throws -> Int {
        Int(
            try session.query(
                """
                SELECT count(*) FROM offers o JOIN campaigns c ON c.name = o.campaign JOIN apps a ON a.id = c.app_id
                WHERE a.app_apple_id = \(appAppleId) AND o.active
                """
            )[0].decode(Int64.self))
    }

    /// Records the campaign, its app and its offers; returns the app's row id.
    private static func upsert(_ campaign: Campaign, _ session: PostgresSession, label: String) throws -> Int64 {
        let appAppleId = campaign.app.appAppleId
        try session.query(
            "INSERT INTO apps (app_apple_id) VALUES (\(appAppleId)) ON CONFLICT (app_apple_id) DO NOTHING")
        guard
            let appId = try session.query("SELECT id FROM apps WHERE app_apple_id = \(appAppleId)").first.map({
                try $0.decode(Int64.self)
            })
        else {
            throw LedgerError.corrupt(
                path: label, reason: "the row of app \(appAppleId) is missing right after its insert")
        }
        try session.query(
            """
            INSERT INTO campaigns (name, app_id, bundle_id) VALUES (\(campaign.name), \(appId), \(campaign.app.bundleId))
            ON CONFLICT (name) DO UPDATE SET bundle_id = excluded.bundle_id
            """)
        for offer in campaign.offers {
            try session.query(
                """
                INSERT INTO offers (campaign, name, product_type, product_asc_id, product_id)
                VALUES (\(campaign.name), \(offer.referenceName), \(offer.product.type.rawValue), \(offer.product.id),
                    \(offer.product.productId))
                ON CONFLICT (campaign, name) DO UPDATE SET product_type = excluded.product_type,
                    product_asc_id = excluded.product_asc_id, product_id = excluded.product_id
                """)
        }
        return appId
    }
}
