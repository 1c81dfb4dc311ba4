extension ExportRecipient {
    /// Reads a recipients file: CSV (RFC 4180 quoting), one recipient per line, `name` or
    /// `name,language`. A field in double quotes may hold commas and `""` for a quote
    /// (`"Wang, Fang",zh-Hans`); whitespace around fields is ignored; blank lines are skipped; an
    /// empty language means the export's language. A quoted field cannot span lines (a name holds
    /// no line break).
    ///
    /// - Throws: ``ExportError/malformedRecipientLine(line:reason:)`` naming the first bad line and
    ///   why: invalid UTF-8, an unclosed quote, text after a closing quote, more than two fields, an
    ///   empty name or an unsupported language.
    public static func list(csv bytes: [UInt8]) throws(ExportError) -> [ExportRecipient] {
        var recipients: [ExportRecipient] = []
        var lineNumber = 0
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = rawLine
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard let text = String(validating: line, as: UTF8.self) else {
                throw .malformedRecipientLine(line: lineNumber, reason: "is not valid UTF-8; save the file as UTF-8")
            }
            if CSVLine.trimmed(text).isEmpty { continue }
            let fields: [String]
            switch CSVLine.fields(Substring(text)) {
            case .failure(.unmatchedQuote):
                throw .malformedRecipientLine(
                    line: lineNumber,
                    reason: "has a double quote that is never closed on that line (a name cannot span lines)")
            case .failure(.textAfterClosingQuote):
                throw .malformedRecipientLine(
                    line: lineNumber,
                    reason: "has text after a closing double quote; write a quote inside a quoted field as \"\"")
            case .success(let parts): fields = parts
            }
            guard fields.count <= 2 else {
                throw .malformedRecipientLine(
                    line: lineNumber,
                    reason: "has \(fields.count) fields; expected name or name,language (quote a name that holds "
                        + "a comma: \"Wang, Fang\",zh-Hans)")
            }
            guard !fields[0].isEmpty else {
                throw .malformedRecipientLine(line: lineNumber, reason: "has an empty name; every recipient needs one")
            }
            let language = fields.count == 2 && !fields[1].isEmpty ? fields[1] : nil
            if let language, CodeExporter.supportedLanguage(language) == nil {
                throw .malformedRecipientLine(
                    line: lineNumber,
                    reason: "asks for language \"\(language)\", which is not supported: expected one of "
                        + "\(CodeExporter.languages.joined(separator: ", ")), or none for the export's language")
            }
            recipients.append(ExportRecipient(name: fields[0], language: language))
        }
        return recipients
    }
}
