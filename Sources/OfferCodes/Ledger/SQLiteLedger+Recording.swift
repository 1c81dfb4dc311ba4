import GRDB

extension SQLiteLedger {
    /// Records one batch of codes in one transaction; see ``CodeLedger/recordBatch(_:campaign:insertCodes:)``.
    ///
    /// Records the campaign (or updates its bundle ID) and all of its offers (new offers are
    /// active; a recorded offer keeps its `active` switch), then the batch, then its codes, then
    /// the batch's code count and digests. The transaction holds the file's write lock from its
    /// first read (see ``SQLiteLedger``), so the limits it checks cannot change under it.
    ///
    /// - Throws: ``LedgerError/campaignRecordedForAnotherApp(campaign:recordedAppAppleId:appAppleId:)``
    ///   when the campaign name is taken by another app, ``LedgerError/offerNotInCampaign(offer:campaign:)``
    ///   and ``LedgerError/batchOfAnotherCampaign(batchCampaign:campaign:)`` for a batch that does
    ///   not belong to `campaign`, ``LedgerError/invalidBatch(campaign:offer:problem:)`` for values
    ///   out of range, ``LedgerError/quarterLimitExceeded(batch:appAppleId:limit:recorded:)`` and
    ///   ``LedgerError/activeOfferLimitExceeded(campaign:appAppleId:active:limit:)``, and whatever
    ///   `insertCodes` throws.
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
        if let problem = Self.problem(with: batch) {
            throw LedgerError.invalidBatch(campaign: batch.campaign, offer: batch.offer, problem: problem)
        }
        let label = path ?? Self.memoryLabel
        let appAppleId = campaign.app.appAppleId
        return try write("record a batch of offer \"\(batch.offer)\" in campaign \"\(campaign.name)\"") { db in
            let recordedAppId = try Self.fetchInteger(
                db, path: label, "campaigns.app_id", sql: "SELECT app_id FROM campaigns WHERE name = ?",
                arguments: [campaign.name])
            if let recordedAppId {
                let recordedApp = try Self.fetchTexts(
                    db, path: label, "apps.app_apple_id", sql: "SELECT app_apple_id FROM apps WHERE id = ?",
                    arguments: [recordedAppId])
                guard let recordedApp = recordedApp.first else {
                    throw LedgerError.corrupt(
                        path: label,
                        reason: "campaign \(ProblemText.quoted(campaign.name)) names an app that has no row")
                }
                if recordedApp != appAppleId {
                    throw LedgerError.campaignRecordedForAnotherApp(
                        campaign: campaign.name, recordedAppAppleId: recordedApp, appAppleId: appAppleId)
                }
            }
            let recordedBatches = try StoredBatch.fetchAll(db, path: label)
            if LedgerLimitCheck.isRecorded(batch, among: recordedBatches.map(\.batch)) { return false }
            let totals = try Self.quarterTotals(
                db, path: label, appAppleId: appAppleId, quarter: batch.quarter, excludingCampaign: nil,
                batches: recordedBatches)
            let recorded = totals[batch.environment] ?? 0
            try LedgerLimitCheck.checkQuarter(batch, appAppleId: appAppleId, recorded: recorded)
            let offersBefore = try Self.offerCount(db, campaign: campaign.name)
            let appId = try Self.upsert(campaign, db, path: label)
            if try Self.offerCount(db, campaign: campaign.name) > offersBefore {
                try LedgerLimitCheck.checkActiveOffers(
                    try Self.activeOffers(db, appAppleId: appAppleId), campaign: campaign.name, appAppleId: appAppleId)
            }
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
            let digest = try CodeInserter(
                db, appId: appId, batchId: batchId, campaign: campaign.name, offer: batch.offer
            )
            .run(insertCodes)
            try StoredBatch.seal(
                db, id: batchId, batch: batch, storedCodes: digest.count, codesDigest: digest.finalized())
            return true
        }
    }

    /// What makes `batch` impossible to record (and to read back), or `nil`.
    package static func problem(with batch: LedgerBatch) -> String? {
        let largest = StoredBatch.largestNumber
        if !(0...largest).contains(batch.index) { return "its index is \(batch.index), expected 0 to \(largest)" }
        if !(1...largest).contains(batch.redemptionLimit) {
            return "its redemption limit is \(batch.redemptionLimit), expected 1 to \(largest)"
        }
        if batch.codeCount < 0 { return "its code count is \(batch.codeCount), expected 0 or more" }
        if !StoredBatch.isQuarter(batch.quarter) {
            return "its quarter is \(ProblemText.quoted(batch.quarter)), expected a quarter such as 2027-Q1"
        }
        return nil
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
        let label = path ?? Self.memoryLabel
        try write("attach codes to oneTimeUseCodes[\(index)] of offer \"\(offer)\" in campaign \"\(campaign)\"") {
            db in
            let stored = try StoredBatch.fetchAll(db, path: label).first {
                $0.batch.campaign == campaign && $0.batch.offer == offer && $0.batch.kind == .oneTimeUse
                    && $0.batch.index == index
            }
            guard let stored else { throw LedgerError.unknownBatch(campaign: campaign, offer: offer, index: index) }
            guard
                let appId = try Self.fetchInteger(
                    db, path: label, "campaigns.app_id", sql: "SELECT app_id FROM campaigns WHERE name = ?",
                    arguments: [campaign])
            else {
                throw LedgerError.corrupt(
                    path: label, reason: "campaign \(ProblemText.quoted(campaign)) has batches but no row of its own")
            }
            let codeCount =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM codes WHERE batch_id = ?", arguments: [stored.id]) ?? 0
            guard codeCount == stored.storedCodes else {
                throw LedgerError.corrupt(
                    path: label,
                    reason: "\(StoredBatch.describe(stored.batch)) has \(ProblemText.grouped(codeCount)) codes in the "
                        + "ledger, but \(ProblemText.grouped(stored.storedCodes)) were recorded")
            }
            guard codeCount == 0 else {
                throw LedgerError.alreadyImported(campaign: campaign, offer: offer, index: index, codeCount: codeCount)
            }
            let digest = try CodeInserter(db, appId: appId, batchId: stored.id, campaign: campaign, offer: offer)
                .run(insertCodes)
            try StoredBatch.seal(
                db, id: stored.id, batch: stored.batch, storedCodes: digest.count, codesDigest: digest.finalized())
        }
    }

    /// Switches a recorded offer active or inactive.
    ///
    /// - Throws: ``LedgerError/unknownOffer(offer:campaign:)`` when the offer is not recorded, and
    ///   ``LedgerError/activeOfferLimitExceeded(campaign:appAppleId:active:limit:)`` when switching
    ///   it on would make more of the app's offers active than Apple allows.
    public func setOfferActive(_ active: Bool, offer: String, campaign: String) throws {
        let label = path ?? Self.memoryLabel
        try write("mark offer \"\(offer)\" of campaign \"\(campaign)\" \(active ? "active" : "inactive")") { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT o.active, a.app_apple_id FROM offers o
                    LEFT JOIN campaigns c ON c.name = o.campaign LEFT JOIN apps a ON a.id = c.app_id
                    WHERE o.campaign = ? AND o.name = ?
                    """,
                arguments: [campaign, offer])
            guard let row else { throw LedgerError.unknownOffer(offer: offer, campaign: campaign) }
            guard case .int64(let current) = (row[0] as DatabaseValue).storage, current == 0 || current == 1,
                case .string(let appAppleId) = (row[1] as DatabaseValue).storage
            else {
                throw LedgerError.corrupt(
                    path: label,
                    reason: "offer \(ProblemText.quoted(offer)) of campaign \(ProblemText.quoted(campaign)) has no "
                        + "readable active switch or app")
            }
            if active, current == 0 {
                try LedgerLimitCheck.checkActiveOffers(
                    try Self.activeOffers(db, appAppleId: appAppleId) + 1, campaign: campaign, appAppleId: appAppleId)
            }
            try db.execute(
                sql: "UPDATE offers SET active = ? WHERE campaign = ? AND name = ?",
                arguments: [active, campaign, offer])
        }
    }

    /// The offers recorded for a campaign.
    private static func offerCount(_ db: Database, campaign: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM offers WHERE campaign = ?", arguments: [campaign]) ?? 0
    }

    /// The app's active offers, in every campaign.
    private static func activeOffers(_ db: Database, appAppleId: String) throws -> Int {
        try Int.fetchOne(
            db,
            sql: """
                SELECT COUNT(*) FROM offers o JOIN campaigns c ON c.name = o.campaign JOIN apps a ON a.id = c.app_id
                WHERE a.app_apple_id = ? AND o.active = 1
                """,
            arguments: [appAppleId]) ?? 0
    }

    /// SQL for the current UTC time, ISO 8601 with milliseconds.
    static let now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"

    /// Records the campaign, its app and its offers; returns the app's row id.
    private static func upsert(_ campaign: Campaign, _ db: Database, path: String) throws -> Int64 {
        try db.execute(
            sql: "INSERT INTO apps (app_apple_id) VALUES (?) ON CONFLICT (app_apple_id) DO NOTHING",
            arguments: [campaign.app.appAppleId])
        guard
            let appId = try Int64.fetchOne(
                db, sql: "SELECT id FROM apps WHERE app_apple_id = ?", arguments: [campaign.app.appAppleId])
        else {
            throw LedgerError.corrupt(
                path: path, reason: "the row of app \(campaign.app.appAppleId) is missing right after its insert")
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
