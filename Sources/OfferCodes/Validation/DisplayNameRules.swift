/// The rules for an offer's `displayName`: at most
/// ``CampaignLimits/maximumDisplayNameEntries`` entries, each keyed by a language tag that no other
/// entry names too (tags compare case-insensitively, `_` as `-`), with a title customers can read.
///
/// Every problem is reported with the path of its entry (`$.offers[0].displayName.ja`).
enum DisplayNameRules {
    /// The ids of the rules, which ``CampaignValidator`` also uses to keep a campaign with such
    /// problems from being read into a model.
    static let ruleIds: Set<String> = [countRule, languageRule, duplicateRule, titleRule]
    private static let countRule = "display-name-count"
    private static let languageRule = "display-name-language"
    private static let duplicateRule = "duplicate-display-name-language"
    private static let titleRule = "display-name-title"

    /// Adds every problem of the `displayName` of `offer`, which is at `path`.
    static func check(_ offer: OfferDraft, at path: ProblemPath, into findings: inout [CampaignFinding]) {
        guard let entries = offer.displayName else { return }
        let path = path["displayName"]
        if entries.count > CampaignLimits.maximumDisplayNameEntries {
            findings.add(
                path, rule: countRule,
                "displayName has \(entries.count) titles; keep at most \(CampaignLimits.maximumDisplayNameEntries), "
                    + "one per language you send messages in", allowed: AllowedText.displayName)
        }
        var firstTags: [String: String] = [:]
        for entry in entries {
            let entryPath = path[entry.language]
            if let problem = tagProblem(entry.language) {
                findings.add(
                    entryPath, rule: languageRule, problem, allowed: AllowedText.displayNameLanguage)
            } else {
                let key = OfferDisplayName.comparisonKey(entry.language)
                if let first = firstTags[key] {
                    findings.add(
                        entryPath, rule: duplicateRule,
                        "\(ProblemText.quoted(entry.language)) names the same language as \(ProblemText.quoted(first)) "
                            + "(tags compare case-insensitively, '_' as '-'); keep one title per language",
                        allowed: AllowedText.displayNameLanguage)
                } else {
                    firstTags[key] = entry.language
                }
            }
            if let title = entry.title, let problem = titleProblem(title, language: entry.language) {
                findings.add(entryPath, rule: titleRule, problem, allowed: AllowedText.displayNameTitle)
            }
        }
    }

    /// What is wrong with `tag` as a language tag, or `nil`.
    private static func tagProblem(_ tag: String) -> String? {
        let quoted = ProblemText.quoted(tag)
        let example = "such as en, ja, ko or zh-Hans"
        let length = CampaignLimits.languageTagLength
        if let bad = tag.unicodeScalars.first(where: { !isTagCharacter($0) }) {
            let shown =
                bad.properties.generalCategory == .control
                ? ProblemText.scalarName(bad) : "'\(bad)' (\(ProblemText.scalarName(bad)))"
            return "\(quoted) is not a language tag: it contains \(shown); use only letters A-Z a-z, digits 0-9 "
                + "and '-', \(example)"
        }
        if !length.contains(tag.count) {
            return "\(quoted) is not a language tag: it is \(ProblemText.count(tag.count, "character")) long; a tag "
                + "has \(length.lowerBound) to \(length.upperBound), \(example)"
        }
        let parts = tag.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" })
        if parts.contains(where: \.isEmpty) {
            return "\(quoted) is not a language tag: it has an empty part; join its parts with single '-', "
                + example
        }
        return nil
    }

    /// Letters A-Z a-z, digits 0-9, `-` and `_` (which stands for `-`).
    private static func isTagCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || scalar == "-" || scalar == "_"
    }

    /// What is wrong with `title`, the title for `language`, or `nil`.
    private static func titleProblem(_ title: String, language: String) -> String? {
        let maximum = CampaignLimits.maximumTitleLength
        if title.allSatisfy(\.isWhitespace) {
            return "the title for \(ProblemText.quoted(language)) is empty; write the offer's name as customers "
                + "should read it in that language, or remove the entry"
        }
        if title.count > maximum {
            return "\(ProblemText.quoted(title)) is \(title.count) characters long; shorten it to \(maximum) or fewer"
        }
        if let control = title.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            return "\(ProblemText.quoted(title)) contains the control character \(ProblemText.scalarName(control)); "
                + "remove it (a title is one line of a message)"
        }
        return nil
    }
}
