extension ExportRecipient {
    /// The column names a recipients file's header line may hold: `recipient` (required), `name`
    /// and `language`, in any order.
    public static let columns = ["recipient", "name", "language"]

    /// Reads a recipients file: CSV (RFC 4180 quoting), one recipient per line.
    ///
    /// Two forms:
    /// - Without a header, each line is `name` or `name,language`, and the name is also the
    ///   recipient id the code is recorded under.
    /// - When the first line's fields are all column names of ``columns`` (each at most once, and
    ///   `recipient` among them), it is a header, and each line after it holds those columns in
    ///   that order: `recipient,name,language`, `recipient`, `language,recipient`, … An empty name
    ///   greets without a name.
    ///
    /// A field in double quotes may hold commas and `""` for a quote (`"Wang, Fang",zh-Hans`);
    /// whitespace around fields is ignored; blank lines are skipped; an empty language means the
    /// export's language. A quoted field cannot span lines (a name holds no line break). Every
    /// recipient id follows ``RecipientId``'s rules and appears once.
    ///
    /// - Throws: ``ExportError/malformedRecipientLine(line:reason:)`` naming the first bad line and
    ///   why: invalid UTF-8, an unclosed quote, text after a closing quote, too many fields, an
    ///   empty name or recipient, a recipient id that breaks ``RecipientId``'s rules, an
    ///   unsupported language, or a header without a `recipient` column;
    ///   ``ExportError/duplicateRecipient(id:firstLine:line:)`` for an id listed twice.
    public static func list(csv bytes: [UInt8]) throws(ExportError) -> [ExportRecipient] {
        // Sized once, read line by line: a list of a million recipients holds little beyond them.
        let lineCount = bytes.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        var recipients: [ExportRecipient] = []
        recipients.reserveCapacity(lineCount)
        var lineNumbers: [Int32] = []
        lineNumbers.reserveCapacity(lineCount)
        var header: [String]?
        var isFirst = true
        var lineNumber = 0
        var start = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var line = bytes[start..<end]
            start = end + 1
            lineNumber += 1
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard let text = String(validating: line, as: UTF8.self) else {
                throw .malformedRecipientLine(line: lineNumber, reason: "is not valid UTF-8; save the file as UTF-8")
            }
            if CSVLine.trimmed(text).isEmpty { continue }
            let fields = try Self.fields(of: text, line: lineNumber)
            if isFirst {
                isFirst = false
                if let columns = try Self.header(fields, line: lineNumber) {
                    header = columns
                    continue
                }
            }
            let recipient =
                if let header {
                    try Self.recipient(fields, columns: header, line: lineNumber)
                } else {
                    try Self.recipient(nameAndLanguage: fields, line: lineNumber)
                }
            recipients.append(recipient)
            lineNumbers.append(Int32(clamping: lineNumber))
        }
        if let repeated = firstRepeat(recipients, lineNumbers: lineNumbers) {
            throw .duplicateRecipient(id: repeated.id, firstLine: repeated.firstLine, line: repeated.line)
        }
        return recipients
    }

    /// The earliest line whose recipient id an earlier line has, with that earlier line: found by
    /// sorting the recipients' positions (4 bytes each) rather than in a dictionary of the ids
    /// (about 50 bytes each, which made the peak of a 1,000,000-line export 152 MB instead of 130).
    private static func firstRepeat(_ recipients: [ExportRecipient], lineNumbers: [Int32])
        -> (id: String, firstLine: Int, line: Int)?
    {
        var order = Array(Int32(0)..<Int32(clamping: recipients.count))
        order.sort { left, right in
            let (a, b) = (recipients[Int(left)].id, recipients[Int(right)].id)
            return a < b || (a == b && left < right)
        }
        // In each run of one id (positions ascending), the second is the id's first repeat.
        var found: (id: String, firstLine: Int, line: Int)?
        var runStart = 0
        for index in order.indices.dropFirst() {
            let (previous, current) = (Int(order[index - 1]), Int(order[index]))
            guard recipients[previous].id == recipients[current].id else {
                runStart = index
                continue
            }
            guard index == runStart + 1 else { continue }
            let line = Int(lineNumbers[current])
            if found.map({ line < $0.line }) ?? true {
                found = (recipients[current].id, Int(lineNumbers[previous]), line)
            }
        }
        return found
    }

    private static func fields(of text: String, line: Int) throws(ExportError) -> [String] {
        switch CSVLine.fields(Substring(text)) {
        case .failure(.unmatchedQuote):
            throw .malformedRecipientLine(
                line: line, reason: "has a double quote that is never closed on that line (a name cannot span lines)")
        case .failure(.textAfterClosingQuote):
            throw .malformedRecipientLine(
                line: line, reason: "has text after a closing double quote; write a quote inside a quoted field as \"\""
            )
        case .success(let parts): return parts
        }
    }

    /// The columns, when `fields` is a header line: every field a column name, each once.
    private static func header(_ fields: [String], line: Int) throws(ExportError) -> [String]? {
        guard fields.allSatisfy(columns.contains), Set(fields).count == fields.count else { return nil }
        guard fields.contains("recipient") else {
            throw .malformedRecipientLine(
                line: line,
                reason: "is a header naming \(fields.joined(separator: ", ")) but no recipient column; expected a "
                    + "header such as recipient,name,language (recipient: the id each code is recorded under), or "
                    + "no header (each line name or name,language, the name being the id)")
        }
        return fields
    }

    /// A line of a file with a header.
    private static func recipient(_ fields: [String], columns: [String], line: Int) throws(ExportError)
        -> ExportRecipient
    {
        guard fields.count <= columns.count else {
            throw .malformedRecipientLine(
                line: line,
                reason:
                    "has \(fields.count) fields; the header names \(columns.count) (\(columns.joined(separator: ","))"
                    + "); quote a value that holds a comma: \"Wang, Fang\"")
        }
        func value(_ column: String) -> String? {
            guard let index = columns.firstIndex(of: column), index < fields.count, !fields[index].isEmpty else {
                return nil
            }
            return fields[index]
        }
        guard let id = value("recipient") else {
            throw .malformedRecipientLine(line: line, reason: "has an empty recipient; every line needs one")
        }
        if let problem = RecipientId.problem(id) {
            throw .malformedRecipientLine(line: line, reason: "has a recipient id that \(problem)")
        }
        return ExportRecipient(id: id, name: value("name"), language: try language(value("language"), line: line))
    }

    /// A line of a file without a header: `name` or `name,language`.
    private static func recipient(nameAndLanguage fields: [String], line: Int) throws(ExportError) -> ExportRecipient {
        guard fields.count <= 2 else {
            throw .malformedRecipientLine(
                line: line,
                reason: "has \(fields.count) fields; expected name or name,language (quote a name that holds "
                    + "a comma: \"Wang, Fang\",zh-Hans), or a header line recipient,name,language first")
        }
        guard !fields[0].isEmpty else {
            throw .malformedRecipientLine(line: line, reason: "has an empty name; every recipient needs one")
        }
        if let problem = RecipientId.problem(fields[0]) {
            throw .malformedRecipientLine(line: line, reason: "has a name (also the recipient id) that \(problem)")
        }
        let language = try language(fields.count == 2 && !fields[1].isEmpty ? fields[1] : nil, line: line)
        return ExportRecipient(name: fields[0], language: language)
    }

    private static func language(_ language: String?, line: Int) throws(ExportError) -> String? {
        if let language, CodeExporter.supportedLanguage(language) == nil {
            throw .malformedRecipientLine(
                line: line,
                reason: "asks for language \"\(language)\", which is not supported: expected one of "
                    + "\(CodeExporter.languages.joined(separator: ", ")), or none for the export's language")
        }
        return language
    }
}
