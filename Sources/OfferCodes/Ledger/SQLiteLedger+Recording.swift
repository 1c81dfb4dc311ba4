import GRDB

extension SQLiteLedger {
    /// Records one batch of codes in one transaction; see ``CodeLedger/recordBatch(_:campaign:insertCodes:)``.
    ///
    /// Records the campaign (or updates its bundle ID) and all of its offers (new offers are
    /// active; a recorded offer keeps its `active` switch), then the batch, then its codes.
    ///
    /// - Throws: ``LedgerError/campaignRecordedForAnotherApp(campaign:recordedAppAppleId:appAppleId:)``
    ///   when the campaign name is taken by another app, ``LedgerError/offerNotInCampaign(offer:campaign:)``
    ///   and ``LedgerError/batchOfAnotherCampaign(batchCampaign:campaign:)`` for a batch that does
    ///   not belong to `campaign`, and whatever `insertCodes` throws.
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
        return try write("record a batch of offer \"\(batch.offer)\" in campaign \"\(campaign.name)\"") { db in
            let recordedApp = try String.fetchOne(
                db,
                sql: "SELECT a.app_apple_id FROM campaigns c JOIN apps a ON a.id = c.app_id WHERE c.name = ?",
                arguments: [campaign.name])
            if let recordedApp, recordedApp != campaign.app.appAppleId {
                throw LedgerError.campaignRecordedForAnotherApp(
                    campaign: campaign.name, recordedAppAppleId: recordedApp, appAppleId: campaign.app.appAppleId)
            }
            let alreadyRecorded = try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM batches WHERE campaign = ? AND offer = ? AND kind = ? AND idx = ?)
                    """,
                arguments: [batch.campaign, batch.offer, batch.kind.rawValue, batch.index])
            if alreadyRecorded == true { return false }
            let appId = try Self.upsert(campaign, db)
            try db.execute(
                sql: """
                    INSERT INTO batches (campaign, offer, kind, idx, quarter, redemption_limit, code_count,
                        expiration_date, environment, recorded_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, \(Self.now))
                    """,
                arguments: [
                    batch.campaign, batch.offer, batch.kind.rawValue, batch.index, batch.quarter,
                    batch.redemptionLimit, batch.codeCount, batch.expirationDate?.description,
                    batch.environment.rawValue,
                ])
            let batchId = db.lastInsertedRowID
            try CodeInserter(db, appId: appId, batchId: batchId, campaign: campaign.name, offer: batch.offer)
                .run(insertCodes)
            return true
        }
    }

    /// Attaches Apple's codes to a recorded one-time-use batch in one transaction; see
    /// ``CodeLedger/attachCodes(toOneTimeUseBatch:offer:campaign:insertCodes:)``.
    ///
    /// - Throws: ``LedgerError/unknownBatch(campaign:offer:index:)`` when no such batch is recorded,
    ///   ``LedgerError/alreadyImported(campaign:offer:index:codeCount:)`` when it has codes, and
    ///   whatever `insertCodes` throws.
    public func attachCodes(
        toOneTimeUseBatch index: Int, offer: String, campaign: String,
        insertCodes: (_ insert: (String) throws -> Bool) throws -> Void
    ) throws {
        try write("attach codes to oneTimeUseCodes[\(index)] of offer \"\(offer)\" in campaign \"\(campaign)\"") {
            db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT b.id, c.app_id FROM batches b JOIN campaigns c ON c.name = b.campaign
                    WHERE b.campaign = ? AND b.offer = ? AND b.kind = ? AND b.idx = ?
                    """,
                arguments: [campaign, offer, LedgerBatch.Kind.oneTimeUse.rawValue, index])
            guard let row, let batchId = row[0] as Int64?, let appId = row[1] as Int64? else {
                throw LedgerError.unknownBatch(campaign: campaign, offer: offer, index: index)
            }
            let codeCount =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM codes WHERE batch_id = ?", arguments: [batchId]) ?? 0
            guard codeCount == 0 else {
                throw LedgerError.alreadyImported(campaign: campaign, offer: offer, index: index, codeCount: codeCount)
            }
            try CodeInserter(db, appId: appId, batchId: batchId, campaign: campaign, offer: offer).run(insertCodes)
        }
    }

    /// Switches a recorded offer active or inactive.
    ///
    /// - Throws: ``LedgerError/unknownOffer(offer:campaign:)`` when the offer is not recorded.
    public func setOfferActive(_ active: Bool, offer: String, campaign: String) throws {
        try write("mark offer \"\(offer)\" of campaign \"\(campaign)\" \(active ? "active" : "inactive")") { db in
            try db.execute(
                sql: "UPDATE offers SET active = ? WHERE campaign = ? AND name = ?",
                arguments: [active, campaign, offer])
            guard db.changesCount == 1 else { throw LedgerError.unknownOffer(offer: offer, campaign: campaign) }
        }
    }

    /// SQL for the current UTC time, ISO 8601 with milliseconds.
    static let now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"

    /// Records the campaign, its app and its offers; returns the app's row id.
    private static func upsert(_ campaign: Campaign, _ db: Database) throws -> Int64 {
        try db.execute(
            sql: "INSERT INTO apps (app_apple_id) VALUES (?) ON CONFLICT (app_apple_id) DO NOTHING",
            arguments: [campaign.app.appAppleId])
        guard
            let appId = try Int64.fetchOne(
                db, sql: "SELECT id FROM apps WHERE app_apple_id = ?", arguments: [campaign.app.appAppleId])
        else {
            throw LedgerError.databaseFailure(
                operation: "record app \(campaign.app.appAppleId)", reason: "its row is missing right after its insert")
        }
        try db.execute(
            sql: """
                INSERT INTO campaigns (name, app_id, bundle_id, recorded_at) VALUES (?, ?, ?, \(now))
                ON CONFLICT (name) DO UPDATE SET bundle_id = excluded.bundle_id
                """,
            arguments: [campaign.name, appId, campaign.app.bundleId])
        let statement = try db.makeStatement(
            sql: """
                INSERT INTO offers (campaign, name, product_type, product_asc_id, product_id) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (campaign, name) DO UPDATE SET product_type = excluded.product_type,
                    product_asc_id = excluded.product_asc_id, product_id = excluded.product_id
                """)
        for offer in campaign.offers {
            try statement.execute(arguments: [
                campaign.name, offer.referenceName, offer.product.type.rawValue, offer.product.id,
                offer.product.productId,
            ])
        }
        return appId
    }
}
