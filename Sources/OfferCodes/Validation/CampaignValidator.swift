/// Checks a campaign against the campaign format, App Store Connect's rules and Apple's limits,
/// and reports every problem in one run, each with the JSON path of the field and what is allowed.
///
/// Reading is lenient (see ``CampaignReader``), and a shape problem hides no other problem: the
/// rules check every part of every offer that could be read, so one run reports what a second
/// run, after the reported problems are fixed, would. Only a rule that needs an unreadable part
/// is skipped, for that part (a `paymentMode` that is not one skips the checks that depend on the
/// payment mode). Rules across offers (duplicates, totals) use every part that could be read.
///
/// With a ledger, the validator also checks what other campaigns of the same app hold: active
/// offers (reference names and the limit of 10), custom codes already issued, and the codes
/// already counted in today's quarter. Generated codes are not looked up here: the generator
/// keeps them unique when it records them.
public struct CampaignValidator: Sendable {
    /// The day expiry dates and relative dates count from, and whose quarter the limits use.
    public let today: CalendarDate
    /// Where other campaigns' offers and codes are recorded; `nil` checks the campaign alone.
    public let ledger: (any CodeLedger)?

    /// A validator for `today` (UTC), optionally checking against a ledger.
    public init(today: CalendarDate, ledger: (any CodeLedger)? = nil) {
        self.today = today
        self.ledger = ledger
    }

    /// Reads and checks campaign JSON bytes: every problem, shape and rules, in one list, in
    /// document order.
    ///
    /// Validation is cooperative: in a task that is cancelled, it stops at the next offer.
    /// - Throws: what the ledger throws; `CancellationError` when the current task is cancelled.
    public func validate(json: [UInt8]) throws -> ValidationReport {
        let draft = CampaignReader(today: today).readDraft(json: json, stopsWhenCancelled: true)
        if draft.wasCancelled { throw CancellationError() }
        let findings = draft.findings + (draft.document == nil ? [] : try rules.check(draft))
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
    /// - Throws: what the ledger throws; `CancellationError` when the current task is cancelled
    ///   (checked before each offer).
    public func validate(_ campaign: Campaign) throws -> [ValidationProblem] {
        DocumentOrder.sorted(try rules.check(CampaignDraft(campaign: campaign)), document: nil)
    }

    private var rules: CampaignRules { CampaignRules(today: today, ledger: ledger) }
}
