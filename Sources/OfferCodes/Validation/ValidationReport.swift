/// What ``CampaignValidator/validate(json:)`` found: the campaign (when the file could be read
/// into one) and every problem, in document order.
public struct ValidationReport: Sendable {
    /// The campaign; `nil` when the JSON could not be read into a model (it had shape problems)
    /// or an offer's `displayName` breaks a rule (its titles would reach customers).
    /// A campaign can be present and still break rules: check ``isValid``.
    public var campaign: Campaign?
    /// Every problem, shape and rules, in document order.
    public var problems: [ValidationProblem]

    public init(campaign: Campaign?, problems: [ValidationProblem]) {
        self.campaign = campaign
        self.problems = problems
    }

    /// Whether the campaign was read and breaks no rule.
    public var isValid: Bool { problems.isEmpty }

    /// The valid campaign.
    /// - Throws: ``CampaignProblems`` with all problems, when there are any.
    public func validCampaign() throws(CampaignProblems) -> Campaign {
        guard problems.isEmpty, let campaign else { throw CampaignProblems(problems) }
        return campaign
    }
}
