import Foundation
import OfferJSON

/// Why codes cannot be generated. Each message names the field and says what would be accepted.
public enum CodeGenerationError: Error, LocalizedError, Equatable {
    /// `alphabet` has fewer than 2 distinct characters (the count it has).
    case alphabetTooShort(count: Int)
    /// `alphabet` holds a character other than A-Z and 0-9.
    case alphabetCharacterNotAllowed(Character)
    /// `alphabet` holds a character twice (it would be drawn twice as often).
    case alphabetCharacterRepeated(Character)
    /// `prefix` holds a character other than A-Z and 0-9.
    case prefixCharacterNotAllowed(Character)
    /// `length` is below 1.
    case lengthTooShort(Int)
    /// The prefix plus the random characters exceed ``CodeGenerator/maximumCodeLength``.
    case codeTooLong(prefixLength: Int, length: Int)
    /// `count` is negative.
    case countNegative(Int)
    /// `count` is more than ``CodeGenerator/maximumCount`` (`maximum`), the most codes one run
    /// generates.
    case countAboveMaximum(count: Int, maximum: Int)
    /// `count` is more than half of all possible codes (`maximum` is that half), so uniqueness
    /// could become slow or impossible.
    case countTooLarge(count: Int, maximum: Int)
    /// The system random source could not be opened or read; no weaker source is used instead.
    case randomSourceUnreadable(path: String, reason: String)
    /// ``CodeGenerator/maximumConsecutiveRefusals`` codes in a row were refused as taken, after
    /// `accepted` of `count` codes were accepted.
    case spaceExhausted(accepted: Int, count: Int)

    public var errorDescription: String? {
        switch self {
        case .alphabetTooShort(let count):
            "alphabet: has \(count) distinct character\(count == 1 ? "" : "s"); at least 2 are needed, "
                + "for example \(CodeGenerationSpec.defaultAlphabet)"
        case .alphabetCharacterNotAllowed(let character):
            "alphabet: \(Self.describe(character)) is not allowed; use upper-case letters A-Z and digits 0-9"
                + Self.upperCaseHint(character)
        case .alphabetCharacterRepeated(let character):
            "alphabet: \(Self.describe(character)) appears more than once; list each character once"
        case .prefixCharacterNotAllowed(let character):
            "prefix: \(Self.describe(character)) is not allowed; use upper-case letters A-Z and digits 0-9"
                + Self.upperCaseHint(character)
        case .lengthTooShort(let length):
            "length: \(length) is too short; at least 1 random character is needed"
        case .codeTooLong(let prefixLength, let length):
            // `length` may be as large as Int.max: the sum is only shown when it does not overflow.
            "prefix and length: codes would have "
                + (length <= Int.max - prefixLength
                    ? "\(prefixLength + length)" : "more than \(CodeGenerator.maximumCodeLength)")
                + " characters (prefix \(prefixLength) + length \(length)); at most "
                + "\(CodeGenerator.maximumCodeLength) are allowed, so use a length of at most "
                + "\(max(0, CodeGenerator.maximumCodeLength - prefixLength))"
        case .countNegative(let count):
            "count: \(count) is negative; expected 0 or more"
        case .countAboveMaximum(let count, let maximum):
            "count: \(ProblemText.grouped(count)) is more than \(ProblemText.grouped(maximum)), the most codes one "
                + "run generates; ask for at most \(ProblemText.grouped(maximum))"
        case .countTooLarge(let count, let maximum):
            "count: \(count) is more than half of the possible codes (at most \(maximum)); "
                + "use a longer length or a larger alphabet"
        case .randomSourceUnreadable(let path, let reason):
            "random source: cannot read \(path): \(reason); codes are only generated from the system's "
                + "cryptographic random source, with no weaker fallback"
        case .spaceExhausted(let accepted, let count):
            "count: gave up after \(CodeGenerator.maximumConsecutiveRefusals) drawn codes in a row were already "
                + "taken (\(accepted) of \(count) codes generated); use a longer length, a larger alphabet or "
                + "another prefix"
        }
    }

    /// `"a"` for printable ASCII, `a space`, otherwise the Unicode scalars (`U+00E9 "é"`).
    private static func describe(_ character: Character) -> String {
        if character == " " { return "a space" }
        if character.isASCII, let scalar = character.unicodeScalars.first, scalar.value >= 0x21, scalar.value < 0x7F {
            return "\"\(character)\""
        }
        return character.unicodeScalars.map(Hex.scalarName).joined(separator: " ")
    }

    private static func upperCaseHint(_ character: Character) -> String {
        guard character.isASCII, character.isLowercase else { return "" }
        return " (did you mean \"\(character.uppercased())\"?)"
    }
}
