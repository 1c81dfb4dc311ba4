/// Turns values into CSV fields (RFC 4180) that spreadsheets do not run as formulas.
///
/// Formula-injection guard: a value whose first character is `=`, `+`, `-`, `@`, a tab or a
/// carriage return (or the full-width `＝`, `＋`, `－`, `＠`, which some spreadsheet locales also
/// accept) gets a single quote (`'`) in front, so Excel, Numbers, LibreOffice and Google Sheets show
/// it as text. A consumer that needs the original value drops a leading `'` that is followed by one
/// of these characters. Codes, links and dates never start with them; offer and recipient names
/// and messages may.
///
/// Quoting: a field that contains `"`, `,`, CR or LF is wrapped in double quotes, with each `"`
/// doubled; other fields are written as they are.
enum CSVField {
    /// `value` as one CSV field.
    static func encode(_ value: String) -> String {
        let neutralised = value.unicodeScalars.first.map { formulaTriggers.contains($0) } == true
        let needsQuotes = value.utf8.contains { $0 == quote || $0 == comma || $0 == cr || $0 == lf }
        guard neutralised || needsQuotes else { return value }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count + 4)
        if needsQuotes {
            bytes.append(quote)
        }
        if neutralised {
            bytes.append(UInt8(ascii: "'"))
        }
        for byte in value.utf8 {
            if byte == quote {
                bytes.append(quote)
            }
            bytes.append(byte)
        }
        if needsQuotes {
            bytes.append(quote)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// First characters that make spreadsheets read a cell as a formula.
    static let formulaTriggers: Set<Unicode.Scalar> = [
        "=", "+", "-", "@", "\t", "\r", "\u{FF1D}", "\u{FF0B}", "\u{FF0D}", "\u{FF20}",
    ]

    private static let quote = UInt8(ascii: "\"")
    private static let comma = UInt8(ascii: ",")
    private static let cr = UInt8(ascii: "\r")
    private static let lf = UInt8(ascii: "\n")
}
