extension [CampaignFinding] {
    /// Appends a problem.
    mutating func add(_ path: ProblemPath, rule: String, _ message: String, allowed: String?) {
        append(CampaignFinding(path, rule: rule, message, allowed: allowed))
    }
}
