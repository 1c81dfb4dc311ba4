import OfferJSON

/// The work behind ``AppleCodeCSV/parse(_:)``: splits lines, takes well-formed codes on a fast
/// path over bytes, and explains every other line.
struct AppleCodeCSVParser {
    private(set) var codes: [String] = []
    private(set) var problems: [AppleCodeCSV.Problem] = []
    private(set) var headerLine: Int?
    /// The first line of each code, for duplicates.
    private var firstLine: [String: Int] = [:]
    private var sawContent = false

    mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var lineNumber = 0
        while start < bytes.count {
            lineNumber += 1
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            line(UnsafeBufferPointer(rebasing: bytes[start..<end]), number: lineNumber)
            start = end + 1
        }
    }

    private mutating func line(_ raw: UnsafeBufferPointer<UInt8>, number: Int) {
        var lower = 0
        var upper = raw.count
        while lower < upper, Self.isASCIIBlank(raw[lower]) { lower += 1 }
        while upper > lower, Self.isASCIIBlank(raw[upper - 1]) { upper -= 1 }
        let bytes = UnsafeBufferPointer(rebasing: raw[lower..<upper])
        if bytes.isEmpty { return }
        let isFirst = !sawContent
        sawContent = true
        if isFirst, Self.headerWords.contains(String(decoding: bytes, as: UTF8.self).uppercased()) {
            headerLine = number  // "CODE", "Codes", "VALUES": a header in any case, never a code
            return
        }
        if bytes.count <= AppleCodeCSV.maximumCodeLength, bytes.allSatisfy(CodeSpace.isCodeByte) {
            record(String(decoding: bytes, as: UTF8.self), line: number)
        } else {
            explain(bytes, number: number, isFirst: isFirst)
        }
    }

    /// The slow path: anything that is not a bare well-formed code.
    private mutating func explain(_ bytes: UnsafeBufferPointer<UInt8>, number: Int, isFirst: Bool) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return problem(number, "is not valid UTF-8; expected one code of A-Z and 0-9")
        }
        if CSVLine.trimmed(text).isEmpty {
            // Blank once Unicode white space is removed: the header may still follow.
            if isFirst { sawContent = false }
            return
        }
        let value: String
        switch CSVLine.fields(Substring(text)) {
        case .failure(.unmatchedQuote):
            return problem(number, "has a double quote that is never closed: \(Self.clip(text))")
        case .failure(.textAfterClosingQuote):
            return problem(number, "has text after a closing double quote: \(Self.clip(text))")
        case .success(let fields) where fields.count > 1:
            return problem(number, "has \(fields.count) columns; expected one code per line: \(Self.clip(text))")
        case .success(let fields):
            value = fields[0]
        }
        let looksLikeHeader = Self.namesColumn(value)
        if isFirst, looksLikeHeader {
            headerLine = number
            return
        }
        if value.isEmpty {
            return problem(number, "is an empty quoted value; expected a code")
        }
        if value.count > AppleCodeCSV.maximumCodeLength {
            return problem(
                number,
                "is too long (\(value.count) characters; at most \(AppleCodeCSV.maximumCodeLength)): \(Self.clip(value))"
            )
        }
        if value.utf8.allSatisfy(CodeSpace.isCodeByte) {
            return record(value, line: number)
        }
        if looksLikeHeader {
            return problem(number, "looks like a column header, which only the first line may be: \(Self.clip(value))")
        }
        let isLowerCaseLetter = { (byte: UInt8) in (0x61...0x7A).contains(byte) }
        if value.utf8.allSatisfy({ CodeSpace.isCodeByte($0) || isLowerCaseLetter($0) }) {
            let upper = value.uppercased()
            let repeats = firstLine[upper].map { "; upper-cased it repeats line \($0)" } ?? ""
            return problem(
                number,
                "has lower-case letters: \(Self.clip(value)); codes are upper-case (did you mean \"\(upper)\"?)\(repeats)"
            )
        }
        let character = value.first { character in
            guard let byte = character.asciiValue, character.unicodeScalars.count == 1 else { return true }
            return !CodeSpace.isCodeByte(byte) && !isLowerCaseLetter(byte)
        }!
        problem(number, "has \(Self.describe(character)), which is not A-Z or 0-9: \(Self.clip(value))")
    }

    private mutating func record(_ code: String, line: Int) {
        if let first = firstLine[code] {
            problem(line, "repeats line \(first): \"\(code)\"")
        } else {
            firstLine[code] = line
            codes.append(code)
        }
    }

    private mutating func problem(_ line: Int, _ message: String) {
        problems.append(AppleCodeCSV.Problem(line: line, message: message))
    }

    /// Whether `value` names a column: not a code; letters, spaces, `_`, `-`; says "code" or "value".
    /// Column names that are a header on the first line even in upper case (which would
    /// otherwise read as a code).
    static let headerWords: Set<String> = [
        "CODE", "CODES", "VALUE", "VALUES", "OFFERCODE", "OFFERCODES", "ONETIMEUSECODE", "ONETIMEUSECODES",
        "\"CODE\"", "\"CODES\"", "\"VALUE\"", "\"VALUES\"",
    ]

    private static func namesColumn(_ value: String) -> Bool {
        guard !value.isEmpty, value.count <= AppleCodeCSV.maximumCodeLength,
            !value.utf8.allSatisfy(CodeSpace.isCodeByte),
            value.utf8.allSatisfy({ byte in
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x20 || byte == 0x5F
                    || byte == 0x2D
            })
        else { return false }
        let lower = value.lowercased()
        return lower.contains("code") || lower.contains("value")
    }

    private static func isASCIIBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    /// The text quoted and escaped, cut after ``AppleCodeCSV/clipLength`` characters.
    private static func clip(_ text: String) -> String {
        guard text.count > AppleCodeCSV.clipLength else { return text.debugDescription }
        return String(text.prefix(AppleCodeCSV.clipLength)).debugDescription + "…"
    }

    /// `"-"`, `a space`, `a tab`, or the Unicode scalars (`U+00E9 "é"`).
    private static func describe(_ character: Character) -> String {
        switch character {
        case " ": return "a space"
        case "\t": return "a tab"
        default:
            let scalars = character.unicodeScalars.map(Hex.scalarName).joined(separator: " ")
            let printable = character.unicodeScalars.allSatisfy { isPrintable($0) }
            if character.isASCII, printable { return "\"\(character)\"" }
            return printable ? "\(scalars) \"\(character)\"" : scalars
        }
    }

    private static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator,
            .spaceSeparator, .nonspacingMark, .enclosingMark:
            false
        default: true
        }
    }
}
