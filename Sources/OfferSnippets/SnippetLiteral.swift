import Foundation
import OfferJSON

/// A text value written as a string literal of the language a snippet is in, so templates never
/// quote or escape by hand: `{{{json.productId}}}`, `{{{python.productId}}}`,
/// `{{{swift.productId}}}`, `{{{shell.url}}}`, `{{{heredoc.productId}}}`.
enum SnippetLiteral {
    /// A JSON string, ASCII only: non-ASCII as `\uXXXX` (UTF-16), controls escaped. The same text
    /// is a valid string literal in JavaScript and Java (whose source may not be read as
    /// UTF-8, and which turns `\u000a` into a line break before it parses, so line breaks and
    /// every other control use their short or `\u00XX` forms, never a raw byte).
    static func json(_ text: String) -> String {
        jsonEscaping(text, alsoAsUnicode: [])
    }

    /// A JSON string like ``json(_:)`` that an unquoted POSIX shell here-document (`3<<JSON`)
    /// passes on unchanged: the characters it would expand or unescape there, `\`, `$` and `` ` ``,
    /// are written `\u005c`, `\u0024` and `\u0060` (so a curl snippet can put a shell variable
    /// such as `$CUSTOMER_TRANSACTION_ID` beside them in the same body).
    static func heredoc(_ text: String) -> String {
        jsonEscaping(text, alsoAsUnicode: [0x5C, 0x24, 0x60])
    }

    private static func jsonEscaping(_ text: String, alsoAsUnicode: Set<UInt16>) -> String {
        var out = "\""
        for unit in text.utf16 {
            if alsoAsUnicode.contains(unit) {
                out += "\\u" + Hex.padded(unit, digits: 4, uppercase: false)
                continue
            }
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default: out += "\\u" + Hex.padded(unit, digits: 4, uppercase: false)
            }
        }
        return out + "\""
    }

    /// A Python string literal, ASCII only: like ``json(_:)``, but a character outside the Basic
    /// Multilingual Plane is one `\UXXXXXXXX` escape, not a surrogate pair (which Python would keep
    /// as two lone surrogates).
    static func python(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            if scalar.value > 0xFFFF {
                out += "\\U" + Hex.padded(scalar.value, digits: 8, uppercase: false)
            } else {
                out += json(String(scalar)).dropFirst().dropLast()
            }
        }
        return out + "\""
    }

    /// A Swift string literal: quotes, backslashes and controls escaped, other text as it is.
    static func swift(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0..<0x20, 0x7F, 0x2028, 0x2029:
                out += "\\u{" + Hex.padded(scalar.value, digits: 1, uppercase: false) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A single-quoted POSIX shell word: nothing in it is expanded.
    static func shell(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
