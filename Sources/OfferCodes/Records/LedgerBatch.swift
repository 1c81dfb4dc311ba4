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
