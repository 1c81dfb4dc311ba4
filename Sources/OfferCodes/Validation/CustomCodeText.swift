/// What custom codes, and the prefixes and alphabets of generated ones, may hold: upper-case
/// letters A-Z and digits 0-9.
enum CustomCodeText {
    /// Whether `character` may appear in a custom code.
    static func isCodeCharacter(_ character: Character) -> Bool {
        CodeSpace.codeByte(character) != nil
    }

    /// What is wrong with a given custom code, or `nil`.
    static func problem(with code: String) -> String? {
        if code.isEmpty { return "the code is empty; write the code, or remove the entry" }
        if code.count > CampaignLimits.maximumCodeLength {
            return "\(ProblemText.quoted(code)) is \(code.count) characters long; custom codes have at most "
                + "\(CampaignLimits.maximumCodeLength)"
        }
        return characterProblem(in: code, what: "custom codes")
    }

    /// What is wrong with the characters of `text` (a code, a prefix or an alphabet), or `nil`:
    /// lower-case letters with the upper-cased suggestion, otherwise the first character not allowed.
    static func characterProblem(in text: String, what: String) -> String? {
        guard let bad = text.first(where: { !isCodeCharacter($0) }) else { return nil }
        let upper = text.uppercased()
        if upper.allSatisfy(isCodeCharacter) {
            return "\(ProblemText.quoted(text)) has lower-case letters; \(what) are upper-case: write "
                + ProblemText.quoted(upper)
        }
        return "\(ProblemText.quoted(text)) contains \(describe(bad)), which \(what) cannot hold; use only upper-case "
            + "letters A-Z and digits 0-9"
    }

    /// `"-"` for printable ASCII, `a space`, otherwise the Unicode scalars (`U+00E9`).
    static func describe(_ character: Character) -> String {
        if character == " " { return "a space" }
        if let byte = character.asciiValue, byte > 0x20, byte < 0x7F { return "\"\(character)\"" }
        return character.unicodeScalars.map(ProblemText.scalarName).joined(separator: " ")
    }
}
