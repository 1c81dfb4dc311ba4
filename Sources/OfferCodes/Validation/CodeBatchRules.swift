/// The rules for an offer's code batches: counts, expiry dates, custom-code strings and the
/// description of generated codes.
struct CodeBatchRules {
    /// The day expiry dates are checked against.
    let today: CalendarDate

    /// Adds every problem of the code batches of `offer`, which is at `path`; batches and parts
    /// of batches that could not be read are skipped.
    func check(_ offer: OfferDraft, at path: ProblemPath, into findings: inout [CampaignFinding]) {
        for (index, batch) in (offer.oneTimeUseCodes ?? []).enumerated() {
            guard let batch else { continue }
            checkOneTimeUse(batch, at: path["oneTimeUseCodes"][index], into: &findings)
        }
        for (index, batch) in (offer.customCodes ?? []).enumerated() {
            guard let batch else { continue }
            checkCustom(batch, at: path["customCodes"][index], into: &findings)
        }
    }

    private func checkOneTimeUse(
        _ batch: OneTimeUseBatchDraft, at path: ProblemPath, into findings: inout [CampaignFinding]
    ) {
        if let count = batch.count { Self.checkCount(count, at: path["count"], into: &findings) }
        guard let date = batch.expirationDate else { return }
        let latest = today.adding(months: CampaignLimits.oneTimeUseExpiryMonths)
        let allowed = "a date after \(today) and no later than \(latest) (today + 6 months), such as P90D"
        if date <= today {
            findings.add(
                path["expirationDate"], rule: "one-time-use-expiry",
                "\(date) is not after today (\(today)); choose a later date, so that the codes can be redeemed",
                allowed: allowed)
        } else if date > latest {
            findings.add(
                path["expirationDate"], rule: "one-time-use-expiry",
                "\(date) is more than 6 months after today (\(today)); Apple requires one-time-use codes to "
                    + "expire within 6 months, so choose \(latest) or earlier", allowed: allowed)
        }
    }

    private func checkCustom(
        _ batch: CustomCodeBatchDraft, at path: ProblemPath, into findings: inout [CampaignFinding]
    ) {
        // Both sources are checked when the batch has both (the fix moves one to a batch of its own).
        if let codes = batch.codes.value {
            if codes.isEmpty {
                findings.add(
                    path["codes"], rule: "custom-codes-not-empty",
                    "the list of codes is empty; list at least one code, or use \"generate\"",
                    allowed: AllowedText.codes)
            }
            for (index, code) in codes.enumerated() {
                guard let code, let message = CustomCodeText.problem(with: code) else { continue }
                findings.add(path["codes"][index], rule: "custom-code-format", message, allowed: AllowedText.customCode)
            }
        }
        if let spec = batch.generate.value {
            GenerationSpecRules.check(spec, at: path["generate"], into: &findings)
        }
        if let limit = batch.redemptionLimit, limit < 1 {
            findings.add(
                path["redemptionLimit"], rule: "redemption-limit",
                "redemptionLimit is \(limit); each code must be redeemable at least once",
                allowed: AllowedText.redemptionLimit)
        }
        if let date = batch.expirationDate.value, date <= today {
            findings.add(
                path["expirationDate"], rule: "custom-code-expiry",
                "\(date) is not after today (\(today)); choose a later date, or leave expirationDate out for codes "
                    + "that do not expire", allowed: "a date after \(today), or no expirationDate")
        }
    }

    /// Reports a batch `count` below 1, or above ``CampaignLimits/maximumCodesPerBatch``. Returns
    /// whether the count is in range.
    @discardableResult
    static func checkCount(_ count: Int, at path: ProblemPath, into findings: inout [CampaignFinding]) -> Bool {
        if count < 1 {
            findings.add(
                path, rule: "code-count", "count is \(count); ask for at least 1 code", allowed: AllowedText.codeCount)
            return false
        }
        let maximum = CampaignLimits.maximumCodesPerBatch
        guard count > maximum else { return true }
        findings.add(
            path, rule: "code-count",
            "count is \(ProblemText.grouped(count)), over Apple's limit of \(ProblemText.grouped(maximum)) codes per "
                + "app per quarter, which no single batch can exceed; ask for at most \(ProblemText.grouped(maximum))",
            allowed: AllowedText.codeCount)
        return false
    }
}
