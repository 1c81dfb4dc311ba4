/// Apple's limits that add up across offers and campaigns: active offers per app, and codes per
/// app per calendar quarter (production and sandbox).
struct CampaignTotalsRules {
    let today: CalendarDate
    /// What the ledger holds for the app, leaving out this campaign; `nil` without a ledger.
    let ledger: LedgerSummary?

    /// Adds a problem at `$.offers` for each limit the campaign goes over. Batches whose counts
    /// (or environment) could not be read are left out of the totals.
    func check(_ offers: [OfferDraft], offerCount: Int, into findings: inout [CampaignFinding]) {
        let path = ProblemPath.root["offers"]
        let activeElsewhere = ledger?.activeOfferNames.count ?? 0
        let active = offerCount + activeElsewhere
        if active > CampaignLimits.activeOffersPerApp {
            let ledgerPart =
                ledger == nil
                ? ""
                : " and the ledger holds \(ProblemText.count(activeElsewhere, "active offer")) "
                    + "of this app from other campaigns: \(active) in all"
            findings.add(
                path, rule: "active-offers-limit",
                "the campaign has \(ProblemText.count(offerCount, "offer"))\(ledgerPart), over Apple's limit of "
                    + "\(CampaignLimits.activeOffersPerApp) active offers per app; remove offers, or deactivate older "
                    + "ones first",
                allowed: "at most \(CampaignLimits.activeOffersPerApp) active offers per app (this campaign's offers "
                    + "plus the active offers of other campaigns)")
        }
        var production = 0
        var sandbox = 0
        for offer in offers {
            for batch in (offer.oneTimeUseCodes ?? []).compactMap({ $0 }) {
                guard let count = batch.count, let environment = batch.environment.modelValue else { continue }
                switch environment ?? .production {
                case .production: production = Self.add(production, max(0, count))
                case .sandbox: sandbox = Self.add(sandbox, max(0, count))
                }
            }
            for batch in (offer.customCodes ?? []).compactMap({ $0 }) {
                guard let codeCount = batch.codeCount, let redemptionLimit = batch.redemptionLimit else { continue }
                let (redemptions, overflow) = max(0, codeCount).multipliedReportingOverflow(
                    by: max(0, redemptionLimit))
                production = Self.add(production, overflow ? .max : redemptions)
            }
        }
        checkQuarter(
            production, inLedger: ledger?.productionCodes, limit: CampaignLimits.productionCodesPerQuarter,
            kind: "production codes", rule: "production-codes-per-quarter",
            counted: "one-time-use codes plus, for custom codes, each code's redemption limit", into: &findings)
        checkQuarter(
            sandbox, inLedger: ledger?.sandboxCodes, limit: CampaignLimits.sandboxCodesPerQuarter,
            kind: "sandbox codes", rule: "sandbox-codes-per-quarter", counted: "one-time-use codes with SANDBOX",
            into: &findings)
    }

    private func checkQuarter(
        _ count: Int, inLedger: Int?, limit: Int, kind: String, rule: String, counted: String,
        into findings: inout [CampaignFinding]
    ) {
        let total = Self.add(count, inLedger ?? 0)
        guard total > limit else { return }
        let quarter = today.quarter
        let ledgerPart =
            inLedger.map {
                " and the ledger holds \(ProblemText.grouped($0)) more for this app in \(quarter): "
                    + "\(ProblemText.grouped(total)) in all"
            } ?? ""
        findings.add(
            ProblemPath.root["offers"], rule: rule,
            "the campaign asks for \(ProblemText.grouped(count)) \(kind) in \(quarter) (\(counted))\(ledgerPart), "
                + "over Apple's limit of \(ProblemText.grouped(limit)) per app per quarter; ask for fewer codes"
                + (rule == "production-codes-per-quarter" ? " or lower redemption limits" : ""),
            allowed: "at most \(ProblemText.grouped(limit)) \(kind) per app per calendar quarter")
    }

    /// `a + b`, saturated at `Int.max`.
    private static func add(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
