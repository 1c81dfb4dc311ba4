/// Where OfferKit remembers campaigns, offers and every code it issued, so a later campaign never
/// reuses a code and any run can be exported again.
///
/// ``SQLiteLedger`` (GRDB, one file) is the default. The protocol is small on purpose so that a
/// shared ledger (PostgreSQL, say) can implement it. Every method that writes is atomic: it keeps
/// all of its changes, or none. Every method that writes is also isolated from other writers,
/// in other processes too: what it reads to decide (is the batch recorded, is the code taken,
/// how many codes does the quarter hold, how many offers are active) cannot change before its
/// changes are committed. ``recordBatch(_:campaign:insertCodes:)`` enforces Apple's quarterly and
/// active-offer limits that way, so that runs validated at the same time cannot together go over
/// them.
///
/// A ledger that finds itself damaged throws ``LedgerError/corrupt(path:reason:)`` rather than
/// return less, or other, than was recorded.
public protocol CodeLedger: Sendable {
    /// What the ledger already holds for an app, leaving out one campaign (the one being
    /// validated, so that running a campaign again does not count it twice).
    func summary(appAppleId: String, quarter: String, excludingCampaign: String) throws -> LedgerSummary

    /// Which of `codes` were already issued for the app by a campaign other than
    /// `excludingCampaign`. Codes compare case-insensitively; the result holds them upper-cased.
    func issuedCodes(appAppleId: String, among codes: [String], excludingCampaign: String) throws -> Set<String>

    /// Records one batch of codes atomically.
    ///
    /// Records (or updates) the campaign and the batch's offer, then calls `insertCodes` with a
    /// function that inserts one code and returns `false` when the code was already issued for
    /// the app (the caller draws another). If `insertCodes` throws, or the process dies before
    /// this method returns, nothing of the batch is kept.
    ///
    /// The limits are checked against what the ledger holds when the batch is recorded, in the
    /// same transaction: the app's codes in the batch's quarter and environment (one-time-use
    /// counts plus custom codes times their redemption limit) may not exceed
    /// ``CampaignLimits/productionCodesPerQuarter`` (production) or
    /// ``CampaignLimits/sandboxCodesPerQuarter`` (sandbox), and the
    /// app's active offers may not exceed ``CampaignLimits/activeOffersPerApp`` once the
    /// campaign's new offers are recorded.
    ///
    /// - Returns: `false` when the batch was already recorded (nothing is changed then).
    /// - Throws: ``LedgerError/quarterLimitExceeded(batch:appAppleId:limit:recorded:)`` and
    ///   ``LedgerError/activeOfferLimitExceeded(campaign:appAppleId:active:limit:)`` (nothing is
    ///   recorded then), and whatever `insertCodes` throws.
    @discardableResult
    func recordBatch(
        _ batch: LedgerBatch, campaign: Campaign,
        insertCodes: (_ insert: (String) throws -> Bool) throws -> Void
    ) throws -> Bool

    /// Attaches codes that Apple generated (imported from its CSV) to a recorded one-time-use
    /// batch, atomically: `insertCodes` works as in ``recordBatch(_:campaign:insertCodes:)``, and
    /// if it throws nothing is attached. Throws ``LedgerError`` when the batch is not recorded
    /// or already has codes.
    func attachCodes(
        toOneTimeUseBatch index: Int, offer: String, campaign: String,
        insertCodes: (_ insert: (String) throws -> Bool) throws -> Void
    ) throws

    /// Marks a recorded offer active or inactive (App Store Connect's `active` switch), so that
    /// inactive offers stop counting against the limit of active offers. Switching an offer on
    /// throws ``LedgerError/activeOfferLimitExceeded(campaign:appAppleId:active:limit:)`` when the
    /// app would have more active offers than Apple allows.
    func setOfferActive(_ active: Bool, offer: String, campaign: String) throws

    /// The batches recorded for a campaign, in the order they were recorded.
    func batches(campaign: String) throws -> [LedgerBatch]

    /// Calls `body` with every code of a campaign (optionally of one offer), in the order
    /// issued, without loading them all into memory.
    func forEachCode(campaign: String, offer: String?, _ body: (IssuedCode) throws -> Void) throws

    /// Hands out one code of the scope's offer to each recipient and records it, atomically:
    /// either every recipient gets a code, or nothing is recorded. A recipient who already holds
    /// a code of the scope gets the same one again, so repeating a call is safe. See
    /// `AssignmentRun` for which code each recipient gets; `body` is called with each
    /// assignment, in order, inside the transaction (if it throws, nothing is recorded).
    ///
    /// Assignments of one offer are serialized across processes and hosts (SQLite's write
    /// lock; PostgreSQL's advisory lock of the offer): two recipients never get the same
    /// personal code, and a shared code is never handed out more times than its redemption limit.
    ///
    /// - Throws: ``LedgerError/invalidRecipient(position:problem:)``,
    ///   ``LedgerError/unknownOffer(offer:campaign:)``, ``LedgerError/offerInactive(offer:campaign:)``,
    ///   ``LedgerError/noCodeLeft(campaign:offer:environment:assigned:stored:)``,
    ///   ``LedgerError/nothingToAssign(campaign:offer:environment:reason:)``, and whatever `body` throws.
    func assign(
        recipients: [String], scope: AssignmentScope, channel: AssignmentChannel,
        _ body: (CodeAssignment) throws -> Void
    ) throws

    /// Hands out one code of the scope's offer to `recipient` (the code they already hold, if
    /// any), with channel ``AssignmentChannel/claim``: ``assign(recipients:scope:channel:_:)``
    /// for one recipient, which is what the default implementation calls. A backend may answer
    /// faster with the same result.
    func claim(recipient: String, scope: AssignmentScope) throws -> CodeAssignment

    /// Calls `body` with each recipient and the code they hold in the scope (`nil`: none),
    /// without handing out anything.
    func lookUpAssignments(
        recipients: [String], scope: AssignmentScope, _ body: (String, CodeAssignment?) throws -> Void
    ) throws

    /// Calls `body` with every assignment of a campaign (optionally of one offer), in the order
    /// they were recorded, without loading them all into memory. `isNew` is `false` in each.
    func forEachAssignment(campaign: String, offer: String?, _ body: (CodeAssignment) throws -> Void) throws

    /// What the ledger holds for a campaign and how much of it was handed out; limits are
    /// counted in the quarter of `today`, and batches that expired before `today` are marked.
    ///
    /// - Throws: ``LedgerError/unknownCampaign(campaign:)`` when the campaign is not recorded.
    func status(campaign: String, today: CalendarDate) throws -> CampaignStatus

    /// The App Store Connect resources recorded for a campaign by `codes apply`, in the order
    /// they were first recorded (the plan's order).
    func connectResources(campaign: String) throws -> [ConnectResource]

    /// Records App Store Connect resources atomically: each one is inserted, or replaces the
    /// record of the same campaign, offer, kind and key.
    ///
    /// A resource recorded ``ConnectResource/State/created`` keeps its id and body digest for
    /// good: recording it again in another state, with another id or another body throws
    /// ``LedgerError/connectResourceConflict(resource:problem:)`` and nothing is recorded, so that
    /// no run can lose or replace the id of something App Store Connect created.
    ///
    /// - Throws: ``LedgerError/unknownOffer(offer:campaign:)`` when the offer is not recorded,
    ///   ``LedgerError/connectResourceConflict(resource:problem:)`` for a resource that breaks
    ///   ``ConnectResource``'s rules or would change a created one.
    func recordConnectResources(_ resources: [ConnectResource]) throws

    /// The App Store Connect ids the ledger records as created, of every campaign, for the kinds
    /// given: a lookup after an unknown outcome never takes one of them for another resource.
    func createdConnectIds(kinds: Set<ConnectResource.Kind>) throws -> Set<String>

    /// Takes the lock of `codes apply` runs on a campaign (see ``ConnectRunLock``), without waiting.
    ///
    /// - Throws: ``LedgerError/connectRunInProgress(campaign:)`` when another run holds it.
    func lockConnectRun(campaign: String) throws -> ConnectRunLock
}

extension CodeLedger {
    /// Hands out one code of the scope's offer to `recipient` (the code they already hold, if
    /// any); see ``assign(recipients:scope:channel:_:)``.
    public func claim(recipient: String, scope: AssignmentScope) throws -> CodeAssignment {
        var result: CodeAssignment?
        try assign(recipients: [recipient], scope: scope, channel: .claim) { result = $0 }
        guard let result else {
            throw LedgerError.databaseFailure(operation: "claim a code", reason: "no assignment was returned")
        }
        return result
    }
}

/// What a ledger holds for one app, for the limits that span campaigns.
public struct LedgerSummary: Sendable, Equatable {
    /// Reference names of the app's recorded offers that are active.
    public var activeOfferNames: [String]
    /// Production codes (one-time-use counts plus custom-code redemption limits) recorded in the quarter.
    public var productionCodes: Int
    /// Sandbox one-time-use codes recorded in the quarter.
    public var sandboxCodes: Int

    public init(activeOfferNames: [String] = [], productionCodes: Int = 0, sandboxCodes: Int = 0) {
        self.activeOfferNames = activeOfferNames
        self.productionCodes = productionCodes
        self.sandboxCodes = sandboxCodes
    }

    /// An empty ledger.
    public static let empty = LedgerSummary()
}

/// One batch of codes in the ledger.
public struct LedgerBatch: Sendable, Equatable {
    /// What kind of batch it is.
    public enum Kind: String, Sendable, Equatable {
        /// Custom codes (given or generated); `redemptionLimit` applies to each.
        case custom
        /// A one-time-use batch that Apple generates; its codes arrive by CSV import.
        case oneTimeUse
    }

    /// The campaign's name.
    public var campaign: String
    /// The offer's reference name.
    public var offer: String
    /// Custom or one-time-use.
    public var kind: Kind
    /// The batch's position in the offer's `customCodes` or `oneTimeUseCodes` list.
    public var index: Int
    /// The calendar quarter the batch counts against, for example `2027-Q1`.
    public var quarter: String
    /// Custom codes: redemptions per code. One-time-use: 1.
    public var redemptionLimit: Int
    /// Custom codes: the number of code strings. One-time-use: the number Apple generates.
    public var codeCount: Int
    /// Last day of redemption, if any.
    public var expirationDate: CalendarDate?
    /// Production or sandbox.
    public var environment: CodeEnvironment

    public init(
        campaign: String, offer: String, kind: Kind, index: Int, quarter: String, redemptionLimit: Int,
        codeCount: Int, expirationDate: CalendarDate?, environment: CodeEnvironment
    ) {
        self.campaign = campaign
        self.offer = offer
        self.kind = kind
        self.index = index
        self.quarter = quarter
        self.redemptionLimit = redemptionLimit
        self.codeCount = codeCount
        self.expirationDate = expirationDate
        self.environment = environment
    }

    /// How many redemptions the batch counts against the quarter's limit: `Int.max` when
    /// `codeCount` times `redemptionLimit` does not fit in an `Int`.
    public var redemptions: Int {
        let (product, overflow) = codeCount.multipliedReportingOverflow(by: redemptionLimit)
        return overflow ? .max : product
    }
}

/// One code in the ledger, as exports and plans read it.
public struct IssuedCode: Sendable, Equatable {
    public var code: String
    public var offer: String
    public var kind: LedgerBatch.Kind
    public var batchIndex: Int
    public var redemptionLimit: Int
    public var expirationDate: CalendarDate?
    public var environment: CodeEnvironment

    public init(
        code: String, offer: String, kind: LedgerBatch.Kind, batchIndex: Int, redemptionLimit: Int,
        expirationDate: CalendarDate?, environment: CodeEnvironment
    ) {
        self.code = code
        self.offer = offer
        self.kind = kind
        self.batchIndex = batchIndex
        self.redemptionLimit = redemptionLimit
        self.expirationDate = expirationDate
        self.environment = environment
    }
}
