import OfferCodes

/// What the ledger holds for one campaign, and how much of it was handed out: what
/// `offerkit codes status` and `GET /v1/campaigns/{name}/status` show.
public struct CampaignStatus: Sendable, Equatable {
    /// The campaign's name.
    public var campaign: String
    /// The app the campaign belongs to.
    public var appAppleId: String
    /// The app's bundle ID, as the campaign recorded it (`app.bundleId`): what an API key limited to
    /// some bundle IDs is checked against.
    public var bundleId: String
    /// The campaign's recorded offers, in the order they were first recorded.
    public var offers: [Offer]
    /// The app's usage of Apple's limits (over all of its campaigns).
    public var usage: LimitUsage

    public init(campaign: String, appAppleId: String, bundleId: String, offers: [Offer], usage: LimitUsage) {
        self.campaign = campaign
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.offers = offers
        self.usage = usage
    }

    /// One recorded offer.
    public struct Offer: Sendable, Equatable {
        /// The offer's reference name.
        public var name: String
        /// App Store Connect's `active` switch, as the ledger knows it.
        public var active: Bool
        /// Its batches, in the order they were recorded.
        public var batches: [Batch]

        public init(name: String, active: Bool, batches: [Batch]) {
            self.name = name
            self.active = active
            self.batches = batches
        }
    }

    /// One recorded batch of an offer.
    public struct Batch: Sendable, Equatable {
        /// The batch as recorded.
        public var batch: LedgerBatch
        /// The codes the ledger holds for it: generated custom codes, or the one-time-use codes
        /// imported from Apple (0 until they are imported).
        public var storedCodes: Int
        /// Personal codes: how many were handed out. Shared codes: to how many recipients.
        public var assigned: Int
        /// How many more can be handed out: personal codes not handed out, or for shared codes
        /// the redemptions not yet handed out (codes times redemption limit, minus `assigned`).
        public var left: Int
        /// Whether the batch expired before the day the status was taken (its codes are no longer
        /// handed out).
        public var expired: Bool

        public init(batch: LedgerBatch, storedCodes: Int, assigned: Int, left: Int, expired: Bool) {
            self.batch = batch
            self.storedCodes = storedCodes
            self.assigned = assigned
            self.left = left
            self.expired = expired
        }

        /// Whether the codes are shared (redemption limit above 1).
        public var isShared: Bool { batch.redemptionLimit > 1 }
    }

    /// An app's usage of Apple's limits in one quarter.
    public struct LimitUsage: Sendable, Equatable {
        /// The quarter, for example `2027-Q1`.
        public var quarter: String
        /// Production codes recorded in the quarter (one-time-use counts plus custom codes times
        /// their redemption limit), and Apple's limit.
        public var productionCodes: Int
        public var productionLimit: Int
        /// Sandbox codes recorded in the quarter, and Apple's limit.
        public var sandboxCodes: Int
        public var sandboxLimit: Int
        /// The app's active offers, and Apple's limit.
        public var activeOffers: Int
        public var activeOfferLimit: Int

        public init(quarter: String, summary: LedgerSummary) {
            self.quarter = quarter
            productionCodes = summary.productionCodes
            productionLimit = CampaignLimits.productionCodesPerQuarter
            sandboxCodes = summary.sandboxCodes
            sandboxLimit = CampaignLimits.sandboxCodesPerQuarter
            activeOffers = summary.activeOfferNames.count
            activeOfferLimit = CampaignLimits.activeOffersPerApp
        }
    }
}
