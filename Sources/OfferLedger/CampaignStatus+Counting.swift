import OfferCodes

extension CampaignStatus {
    /// Assembles a status from what the ledger read in one transaction: the campaign's offers
    /// (name and active switch, in order), every batch of the ledger (the campaign's are picked),
    /// the assignments counted per batch (`personal`, `shared`), and the app's summary.
    init(
        campaign: String, app: CampaignApp, offers: [(name: String, active: Bool)], batches: [StoredBatch],
        assignments: [Int64: (personal: Int, shared: Int)], summary: LedgerSummary, today: CalendarDate
    ) {
        let ours = batches.filter { $0.batch.campaign == campaign }
        self.init(
            campaign: campaign, appAppleId: app.appAppleId, bundleId: app.bundleId,
            offers: offers.map { offer in
                Offer(
                    name: offer.name, active: offer.active,
                    batches: ours.filter { $0.batch.offer == offer.name }.map { stored in
                        let counts = assignments[stored.id] ?? (0, 0)
                        let assigned = stored.isPersonal ? counts.personal : counts.shared
                        let (capacity, overflow) = stored.storedCodes.multipliedReportingOverflow(
                            by: stored.batch.redemptionLimit)
                        return Batch(
                            batch: stored.batch, storedCodes: stored.storedCodes, assigned: assigned,
                            left: overflow ? .max : max(0, capacity - assigned), expired: stored.isExpired(on: today))
                    })
            },
            usage: LimitUsage(quarter: today.quarter, summary: summary))
    }
}
