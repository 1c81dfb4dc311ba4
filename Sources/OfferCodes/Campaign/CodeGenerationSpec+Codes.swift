extension CodeGenerationSpec {
    /// What is wrong with `code` as one of the codes this spec generates, or `nil` when it could be one.
    ///
    /// A code of the spec is ``prefix`` followed by exactly ``length`` characters of ``alphabet``,
    /// compared exactly (codes are upper-case). Use it for codes that come from elsewhere, such as
    /// codes a caller generated and recorded earlier, before taking them as a batch's codes. The
    /// spec itself is taken as valid, as ``CampaignValidator`` and ``CodeGenerator`` require.
    ///
    /// The message quotes the code, says which rule it breaks and names the `generate` member that
    /// sets it (`generate.prefix`, `generate.length` or `generate.alphabet`); for a code that fits
    /// once upper-cased, it also says to write it in upper case.
    public func problem(with code: String) -> String? {
        guard let problem = exactProblem(with: code) else { return nil }
        let upper = code.uppercased()
        guard upper != code, exactProblem(with: upper) == nil else { return problem }
        return problem + "; codes are upper-case: write \(ProblemText.quoted(upper))"
    }

    private func exactProblem(with code: String) -> String? {
        let quoted = ProblemText.quoted(code)
        guard code.hasPrefix(prefix) else {
            return "\(quoted) does not start with the batch's prefix \(ProblemText.quoted(prefix)) (generate.prefix)"
        }
        let random = code.dropFirst(prefix.count)
        guard random.count == length else {
            return "\(quoted) has \(random.count) characters after the prefix, but the batch generates \(length) "
                + "(generate.length)"
        }
        if let character = random.first(where: { !alphabet.contains($0) }) {
            return "\(quoted) has \(CustomCodeText.describe(character)), which is not in the batch's alphabet "
                + "\(ProblemText.quoted(alphabet)) (generate.alphabet)"
        }
        return nil
    }
}
