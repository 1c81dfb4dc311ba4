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
