/// The rules for a description of codes to generate: alphabet, prefix, length, and a count within
/// Apple's limit that leaves room for the codes to be unique.
enum GenerationSpecRules {
    /// Adds every problem of `draft`, which is at `path` (the `generate` object). A rule that needs
    /// a part that could not be read is skipped.
    static func check(_ draft: GenerationSpecDraft, at path: ProblemPath, into findings: inout [CampaignFinding]) {
        let countInRange = draft.count.map { CodeBatchRules.checkCount($0, at: path["count"], into: &findings) }
        let prefixProblem = draft.effectivePrefix.flatMap {
            CustomCodeText.characterProblem(in: $0, what: "prefixes")
        }
        if let prefixProblem {
            findings.add(path["prefix"], rule: "generate-prefix", prefixProblem, allowed: AllowedText.prefix)
        }
        let alphabetProblem = draft.effectiveAlphabet.flatMap { Self.alphabetProblem($0) }
        if let alphabetProblem {
            findings.add(path["alphabet"], rule: "generate-alphabet", alphabetProblem, allowed: AllowedText.alphabet)
        }
        let lengthProblem = draft.effectiveLength.flatMap { Self.lengthProblem($0, prefix: draft.effectivePrefix) }
        if let lengthProblem {
            findings.add(path["length"], rule: "generate-length", lengthProblem, allowed: AllowedText.length)
        }
        guard prefixProblem == nil, alphabetProblem == nil, lengthProblem == nil, countInRange == true,
            let spec = draft.spec, let space = try? CodeSpace(spec)
        else { return }
        let maximum = space.maximumUniqueCount
        guard spec.count > maximum else { return }
        findings.add(
            path["count"], rule: "generate-count",
            "count is \(ProblemText.grouped(spec.count)), but \(spec.length) characters from a "
                + "\(spec.alphabet.count)-character alphabet allow only \(ProblemText.grouped(maximum)) unique codes "
                + "(half of all possible ones); use a longer length or a larger alphabet, or ask for fewer codes",
            allowed: "at most half of alphabet size ^ length: here \(ProblemText.grouped(maximum))")
    }

    private static func alphabetProblem(_ alphabet: String) -> String? {
        if let problem = CustomCodeText.characterProblem(in: alphabet, what: "alphabets") { return problem }
        var seen: Set<Character> = []
        if let repeated = alphabet.first(where: { !seen.insert($0).inserted }) {
            return "\(ProblemText.quoted(alphabet)) has \(CustomCodeText.describe(repeated)) more than once; list "
                + "each character once, so that every character is equally likely"
        }
        guard alphabet.count >= 2 else {
            return "\(ProblemText.quoted(alphabet)) has \(alphabet.count) character\(alphabet.count == 1 ? "" : "s"); "
                + "random codes need at least 2"
        }
        return nil
    }

    /// The problem with `length`; only the lower bound is checked when the prefix could not be read.
    private static func lengthProblem(_ length: Int, prefix: String?) -> String? {
        if length < CampaignLimits.minimumGeneratedLength {
            return "length is \(length); generated codes need at least \(CampaignLimits.minimumGeneratedLength) "
                + "random characters to be hard to guess"
        }
        guard let prefix else { return nil }
        // `length` comes from outside and may be as large as Int.max: compare against what is left
        // after the prefix instead of adding the two.
        let prefixLength = prefix.count
        let room = max(0, CampaignLimits.maximumCodeLength - prefixLength)
        guard length > room else { return nil }
        let total = length <= Int.max - prefixLength ? "\(length + prefixLength)-character" : "overlong"
        return "the prefix (\(prefixLength) characters) and length \(length) make \(total) codes; "
            + "custom codes hold at most \(CampaignLimits.maximumCodeLength), so use a length of at most \(room)"
    }
}
