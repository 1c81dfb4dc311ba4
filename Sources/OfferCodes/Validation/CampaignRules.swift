import OfferJSON

/// The rules for a whole campaign: its name and app, each offer (``OfferRules``), duplicates
/// across offers, the limits that span offers and campaigns (``CampaignTotalsRules``), and the
/// promotional, introductory and win-back offers (``SubscriptionOfferRules``,
/// ``SubscriptionOfferLimitRules``).
struct CampaignRules {
    let today: CalendarDate
    /// What the ledger holds for the campaign's app (``LedgerFacts``), or `nil` without a ledger.
    let ledger: LedgerFacts?

    /// What the rules read from a ledger: the app's summary and which of the campaign's given
    /// codes other campaigns issued.
    struct LedgerFacts: Sendable {
        var summary: LedgerSummary
        var issuedCodes: Set<String>
    }

    /// What `history` holds for `draft`'s app: read before the rules run, so that they run
    /// without waiting. Nothing is read when the draft names no campaign or app (the rules
    /// report that).
    static func facts(of draft: CampaignDraft, in history: any AppCodeHistory, today: CalendarDate) async throws
        -> LedgerFacts
    {
        guard let name = draft.name, let appAppleId = draft.appAppleId else {
            return LedgerFacts(summary: .empty, issuedCodes: [])
        }
        let summary = try await history.summary(
            appAppleId: appAppleId, quarter: today.quarter, excludingCampaign: name)
        let codes = givenCodes(of: draft.offers).map(\.code)
        let issued =
            codes.isEmpty
            ? []
            : try await history.issuedCodes(
                appAppleId: appAppleId, among: Array(Set(codes)).sorted(),
                excludingCampaign: name)
        return LedgerFacts(summary: summary, issuedCodes: issued)
    }

    /// Every rule problem of what could be read. Parts of offers that could not be read are
    /// skipped (offers that are not objects entirely), but every offer counts towards the number
    /// of active offers.
    /// - Throws: `CancellationError` when the task is cancelled (checked
    ///   before each offer and before the rules across offers).
    func check(_ draft: CampaignDraft) throws -> [CampaignFinding] {
        var findings: [CampaignFinding] = []
        checkApp(draft, into: &findings)
        if draft.offerCount == 0, draft.listed.values.allSatisfy({ $0 == 0 }) {
            findings.add(
                ProblemPath.root["offers"], rule: "offers-not-empty", "the campaign has no offers; add at least one",
                allowed: AllowedText.offers)
        }
        let offerRules = OfferRules(today: today)
        for (index, offer) in draft.offers {
            try TaskCancellation.check()
            offerRules.check(offer, at: ProblemPath.root["offers"][index], into: &findings)
        }
        try SubscriptionOfferRules(today: today).check(draft, into: &findings)
        SubscriptionOfferLimitRules.check(draft, into: &findings)
        try TaskCancellation.check()
        let summary = ledger?.summary ?? .empty
        DuplicateRules.checkReferenceNames(draft.offers, activeInLedger: summary.activeOfferNames, into: &findings)
        DuplicateRules.checkCustomCodes(
            Self.givenCodes(of: draft.offers), issuedInLedger: ledger?.issuedCodes ?? [], into: &findings)
        CampaignTotalsRules(today: today, ledger: ledger?.summary)
            .check(draft.offers.map(\.offer), offerCount: draft.offerCount ?? draft.offers.count, into: &findings)
        return findings
    }

    private func checkApp(_ draft: CampaignDraft, into findings: inout [CampaignFinding]) {
        if let name = draft.name, let message = Self.nameProblem(name) {
            findings.add(ProblemPath.root["name"], rule: "campaign-name", message, allowed: AllowedText.name)
        }
        if let bundleId = draft.bundleId, !BundleIdText.isReverseDNS(bundleId) {
            findings.add(
                ProblemPath.root["app"]["bundleId"], rule: "bundle-id",
                "\(ProblemText.quoted(bundleId)) is not a reverse-DNS bundle ID; write the app's bundle ID as in "
                    + "Xcode, such as com.example.app", allowed: AllowedText.bundleId)
        }
        if let appAppleId = draft.appAppleId, !Self.isAppAppleId(appAppleId) {
            findings.add(
                ProblemPath.root["app"]["appAppleId"], rule: "app-apple-id",
                "\(ProblemText.quoted(appAppleId)) is not an App Apple ID; use the app's Apple ID from App Store "
                    + "Connect (App Information), such as \"1234567890\"", allowed: AllowedText.appAppleId)
        }
    }

    /// What is wrong with `name` as a campaign name (``CampaignLimits/nameProblem(_:)``), or `nil`.
    static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "the campaign name is empty; name the campaign (the ledger keeps its codes under it)" }
        if name.count > CampaignLimits.maximumNameLength {
            return "\(ProblemText.quoted(name)) is \(name.count) characters long; shorten it to "
                + "\(CampaignLimits.maximumNameLength) or fewer"
        }
        guard let bad = name.first(where: { !isNameCharacter($0) }) else { return nil }
        return "\(ProblemText.quoted(name)) contains \(CustomCodeText.describe(bad)); use letters, digits, '-', '_' "
            + "and '.', such as spring-2027"
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        guard let byte = character.asciiValue else { return false }
        return byte.isASCIIAlphanumeric || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ".")
    }

    private static func isAppAppleId(_ text: String) -> Bool {
        (1...CampaignLimits.maximumAppAppleIdLength).contains(text.utf8.count)
            && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Every given custom code with its path, in document order.
    private static func givenCodes(of offers: [(index: Int, offer: OfferDraft)]) -> [(
        code: String, path: ProblemPath
    )] {
        var codes: [(code: String, path: ProblemPath)] = []
        for (offerIndex, offer) in offers {
            for (batchIndex, batch) in (offer.customCodes ?? []).enumerated() {
                guard let given = batch?.codes.value else { continue }
                let path = ProblemPath.root["offers"][offerIndex]["customCodes"][batchIndex]["codes"]
                for (index, code) in given.enumerated() {
                    if let code { codes.append((code: code, path: path[index])) }
                }
            }
        }
        return codes
    }
}
