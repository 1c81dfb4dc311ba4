import OfferCodes

/// Which codes an assignment takes from: one offer of one campaign, in one environment, leaving
/// out batches that expired before `today`.
public struct AssignmentScope: Sendable, Equatable {
    /// The campaign's name.
    public var campaign: String
    /// The offer's reference name.
    public var offer: String
    /// Production codes (the default) or sandbox codes, which work only in the sandbox.
    public var environment: CodeEnvironment
    /// Batches whose expiration date is before this day are not handed out.
    public var today: CalendarDate

    public init(campaign: String, offer: String, environment: CodeEnvironment = .production, today: CalendarDate) {
        self.campaign = campaign
        self.offer = offer
        self.environment = environment
        self.today = today
    }
}
