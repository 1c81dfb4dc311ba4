/// A batch of one-time-use codes: Apple generates `count` codes that each redeem once.
public struct OneTimeUseBatch: Sendable, Equatable {
    /// How many codes Apple generates (`numberOfCodes`).
    public var count: Int
    /// The last day the codes can be redeemed: within 6 months of creation.
    public var expirationDate: CalendarDate
    /// Production (the default when `nil`) or sandbox.
    public var environment: CodeEnvironment?

    public init(count: Int, expirationDate: CalendarDate, environment: CodeEnvironment? = nil) {
        self.count = count
        self.expirationDate = expirationDate
        self.environment = environment
    }

    /// The environment Apple applies: production unless sandbox is asked for.
    public var effectiveEnvironment: CodeEnvironment { environment ?? .production }
}
