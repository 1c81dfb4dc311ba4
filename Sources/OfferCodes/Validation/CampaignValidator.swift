/// Checks a campaign against the campaign format, App Store Connect's rules and Apple's limits,
/// and reports every problem in one run, each with the JSON path of the field and what is allowed.
///
/// Reading is lenient (see ``CampaignReader``), and a shape problem hides no other problem: the
/// rules check every part of every offer that could be read, so one run reports what a second
/// run, after the reported problems are fixed, would. Only a rule that needs an unreadable part
/// is skipped, for that part (a `paymentMode` that is not one skips the checks that depend on the
/// payment mode). Rules across offers (duplicates, totals) use every part that could be read.
///
/// Against a ledger (``validate(json:against:)``), the validator also checks what other campaigns
/// of the same app hold: active offers (reference names and the limit of 10), custom codes
/// already issued, and the codes already counted in today's quarter. Generated codes are not
/// looked up here: the generator keeps them unique when it records them.
public struct CampaignValidator: Sendable {
    /// The day expiry dates and relative dates count from, and whose quarter the limits use.
    public let today: CalendarDate

    /// A validator for `today` (UTC).
    public init(today: CalendarDate) {
        self.today = today
    }

    /// Reads and checks campaign JSON bytes on their own: every problem, shape and rules, in one
    /// list, in document order.
    ///
    /// Validation is cooperative: in a task that is cancelled, it stops at the next offer.
    /// - Throws: `CancellationError` when the current task is cancelled.
    public func validate(json: [UInt8]) throws -> ValidationReport {
        let draft = try read(json)
        return try report(draft, findings: draft.document == nil ? [] : try rules(nil).check(draft))
    }

    /// Reads and checks campaign JSON bytes as ``validate(json:)`` does, and against what
    /// `ledger` holds for the campaign's app (read first, then the rules run); a `nil` ledger
    /// checks the campaign on its own.
    /// - Throws: what the ledger throws; `CancellationError` when the current task is cancelled.
    public func validate(json: [UInt8], against ledger: (any AppCodeHistory)?) async throws -> ValidationReport {
        let draft = try read(json)
        guard draft.document != nil else { return try report(draft, findings: []) }
        let facts = try await self.facts(of: draft, in: ledger)
        return try report(draft, findings: try rules(facts).check(draft))
    }

    private func read(_ json: [UInt8]) throws -> CampaignDraft {
        let draft = CampaignReader(today: today).readDraft(json: json, stopsWhenCancelled: true)
        if draft.wasCancelled { throw CancellationError() }
        return draft
    }

    private func report(_ draft: CampaignDraft, findings ruleFindings: [CampaignFinding]) throws -> ValidationReport {
        let findings = draft.findings + ruleFindings
        try TaskCancellation.check()
        // Titles that break a rule would reach customers in messages: such a campaign is not
        // handed out as a model, like one with shape problems (commands that only look codes up
        // and export them read the model without requiring every other rule).
        let readable = draft.findings.isEmpty && !findings.contains { DisplayNameRules.ruleIds.contains($0.rule) }
        return ValidationReport(
            campaign: readable ? draft.campaign : nil,
            problems: DocumentOrder.sorted(findings, document: draft.document))
    }

    /// Checks an already-built campaign (from Swift code): every rule problem, offer by offer in
    /// the order of the format's fields.
    /// - Throws: `CancellationError` when the current task is cancelled (checked before each offer).
    public func validate(_ campaign: Campaign) throws -> [ValidationProblem] {
        DocumentOrder.sorted(try rules(nil).check(CampaignDraft(campaign: campaign)), document: nil)
    }

    /// Checks an already-built campaign as ``validate(_:)`` does, and against what `ledger` holds
    /// for its app.
    /// - Throws: what the ledger throws; `CancellationError` when the current task is cancelled.
    public func validate(_ campaign: Campaign, against ledger: (any AppCodeHistory)?) async throws
        -> [ValidationProblem]
    {
        let draft = CampaignDraft(campaign: campaign)
        let facts = try await self.facts(of: draft, in: ledger)
        return DocumentOrder.sorted(try rules(facts).check(draft), document: nil)
    }

    private func facts(of draft: CampaignDraft, in ledger: (any AppCodeHistory)?) async throws
        -> CampaignRules.LedgerFacts?
    {
        guard let ledger else { return nil }
        return try await CampaignRules.facts(of: draft, in: ledger, today: today)
    }

    private func rules(_ facts: CampaignRules.LedgerFacts?) -> CampaignRules {
        CampaignRules(today: today, ledger: facts)
    }
}
