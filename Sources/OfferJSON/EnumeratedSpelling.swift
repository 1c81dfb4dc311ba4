/// Comparing and showing the spellings of enumerated values: the rules behind
/// ``EnumeratedValue``, for readers that hold the spellings as a list (JSON Schema enumerations).
public enum EnumeratedSpelling {
    /// The most characters of a given value that messages show; a longer value is described by its
    /// length only. The longest spelling OfferKit knows is 30 characters, and a secret or a key
    /// pasted into the wrong field is longer than this, so none is ever echoed.
    public static let maximumShownLength = 32

    /// Whether `a` and `b` are the same text apart from the case of ASCII letters.
    public static func equalIgnoringCase(_ a: String, _ b: String) -> Bool {
        let left = a.utf8
        let right = b.utf8
        guard left.count == right.count else { return false }
        return zip(left, right).allSatisfy { lowered($0) == lowered($1) }
    }

    /// The spelling among `spellings` that `text` is in any case: the one to write.
    public static func canonical(_ text: String, among spellings: [String]) -> String? {
        spellings.first { equalIgnoringCase($0, text) }
    }

    /// `text` for a message: in double quotes with control and invisible formatting characters
    /// escaped as `\u{…}`, when it has at most ``maximumShownLength`` characters; otherwise
    /// `a string of N characters (not shown)`.
    public static func shown(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count <= maximumShownLength else {
            return "a string of \(scalars.count) characters (not shown)"
        }
        var out = "\""
        for scalar in scalars {
            if isHidden(scalar) || scalar == "\"" || scalar == "\\" {
                out += scalar == "\"" ? "\\\"" : scalar == "\\" ? "\\\\" : "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// The accepted spellings for a message, each in double quotes: `"a"`, `"a" or "b"`, or
    /// `one of "a", "b", "c"`.
    public static func list(_ spellings: [String]) -> String {
        let quoted = spellings.map { "\"\($0)\"" }
        switch quoted.count {
        case 0, 1: return quoted.first ?? "nothing"
        case 2: return quoted[0] + " or " + quoted[1]
        default: return "one of " + quoted.joined(separator: ", ")
        }
    }

    /// A byte with `A`–`Z` turned into `a`–`z`.
    private static func lowered(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// Control characters (C0, DEL, C1), line and paragraph separators, and the invisible
    /// formatting characters that can make text look like other text (bidirectional controls,
    /// zero-width characters, U+2063).
    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0xAD, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2069, 0xFEFF: true
        default: false
        }
    }
}
