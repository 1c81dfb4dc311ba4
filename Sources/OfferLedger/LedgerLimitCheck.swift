import OfferCodes

/// The decisions every ledger backend makes inside its write transaction, from what it has read
/// there: whether a batch is already recorded, and whether recording it would pass Apple's
/// quarterly or active-offer limits. One place, so SQLite and PostgreSQL cannot drift apart.
package enum LedgerLimitCheck {
    /// Whether `recorded` holds `batch` (same campaign, offer, kind and position).
    package static func isRecorded(_ batch: LedgerBatch, among recorded: [LedgerBatch]) -> Bool {
        recorded.contains {
            $0.campaign == batch.campaign && $0.offer == batch.offer && $0.kind == batch.kind && $0.index == batch.index
        }
    }

    /// Throws ``LedgerError/quarterLimitExceeded(batch:appAppleId:limit:recorded:)`` when `batch`
    /// on top of the `recorded` codes of its quarter and environment would pass the limit.
    package static func checkQuarter(_ batch: LedgerBatch, appAppleId: String, recorded: Int) throws {
        let limit =
            batch.environment == .production
            ? CampaignLimits.productionCodesPerQuarter : CampaignLimits.sandboxCodesPerQuarter
        // `limit - redemptions` rather than `recorded + redemptions`: redemptions may be Int.max.
        if recorded > limit - batch.redemptions {
            throw LedgerError.quarterLimitExceeded(
                batch: batch, appAppleId: appAppleId, limit: limit, recorded: recorded)
        }
    }

    /// Throws ``LedgerError/activeOfferLimitExceeded(campaign:appAppleId:active:limit:)`` when the
    /// app has more active offers than Apple allows.
    package static func checkActiveOffers(_ active: Int, campaign: String, appAppleId: String) throws {
        if active > CampaignLimits.activeOffersPerApp {
            throw LedgerError.activeOfferLimitExceeded(
                campaign: campaign, appAppleId: appAppleId, active: active, limit: CampaignLimits.activeOffersPerApp)
        }
    }
}
