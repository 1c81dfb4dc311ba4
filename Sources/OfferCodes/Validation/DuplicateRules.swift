/// Names and codes that must be unique: reference names among the app's active offers, custom
/// codes among all codes issued for the app.
enum DuplicateRules {
    /// Reports each offer whose reference name an earlier offer of the campaign, or an active
    /// offer of another campaign (from the ledger), already has.
    static func checkReferenceNames(
        _ offers: [(index: Int, offer: OfferDraft)], activeInLedger: [String],
        into findings: inout [CampaignFinding]
    ) {
        let active = Set(activeInLedger)
        var first: [String: Int] = [:]
        for (index, offer) in offers {
            guard let name = offer.referenceName else { continue }
            let path = ProblemPath.root["offers"][index]["referenceName"]
            if let earlier = first[name] {
                findings.add(
                    path, rule: "duplicate-reference-name",
                    "\(ProblemText.quoted(name)) is also the reference name of offers[\(earlier)]; give each offer "
                        + "its own name (StoreKit reports it as the offerIdentifier)",
                    allowed: AllowedText.referenceName)
                continue
            }
            first[name] = index
            if active.contains(name) {
                findings.add(
                    path, rule: "duplicate-reference-name",
                    "\(ProblemText.quoted(name)) is already the name of an active offer of this app in another "
                        + "campaign (in the ledger); choose another name, or deactivate that offer first",
                    allowed: AllowedText.referenceName)
            }
        }
    }

    /// Reports each custom code that appears earlier in the campaign, or that another campaign
    /// already issued for the app (codes compare ignoring case).
    static func checkCustomCodes(
        _ codes: [(code: String, path: ProblemPath)], issuedInLedger: Set<String>,
        into findings: inout [CampaignFinding]
    ) {
        let allowed = "each custom code once per app, ignoring case, across all campaigns"
        var first: [String: ProblemPath] = [:]
        for (code, path) in codes {
            let key = code.uppercased()
            if let earlier = first[key] {
                findings.add(
                    path, rule: "duplicate-custom-code",
                    "\(ProblemText.quoted(code)) is also at \(earlier) (codes compare ignoring case); each code can "
                        + "exist only once, so remove one", allowed: allowed)
                continue
            }
            first[key] = path
            if issuedInLedger.contains(key) {
                findings.add(
                    path, rule: "duplicate-custom-code",
                    "\(ProblemText.quoted(code)) was already issued for this app by another campaign (in the ledger); "
                        + "choose another code", allowed: allowed)
            }
        }
    }
}
