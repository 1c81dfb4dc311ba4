/// One line of a CSV file, split into fields: commas separate fields outside double quotes, a
/// field wrapped in double quotes may hold `""` for a quote, and whitespace around fields is
/// ignored. Quoted fields spanning lines are not supported (one code per line).
enum CSVLine {
    /// Why a line could not be split.
    enum Failure: Error, Equatable {
        /// A field opens a double quote that the line never closes.
        case unmatchedQuote
        /// Something other than whitespace or a comma follows a closing quote.
        case textAfterClosingQuote
    }

    /// The fields of `line` (a line without its line break), trimmed and unquoted.
    static func fields(_ line: Substring) -> Result<[String], Failure> {
        let scalars = Array(line.unicodeScalars)
        var fields: [String] = []
        var index = 0
        while true {
            while index < scalars.count, isBlank(scalars[index]) { index += 1 }
            var field = String.UnicodeScalarView()
            if index < scalars.count, scalars[index] == "\"" {
                index += 1
                var closed = false
                while index < scalars.count {
                    if scalars[index] == "\"" {
                        if index + 1 < scalars.count, scalars[index + 1] == "\"" {
                            field.append("\"")
                            index += 2
                            continue
                        }
                        closed = true
                        index += 1
                        break
                    }
                    field.append(scalars[index])
                    index += 1
                }
                guard closed else { return .failure(.unmatchedQuote) }
                while index < scalars.count, isBlank(scalars[index]) { index += 1 }
                guard index == scalars.count || scalars[index] == "," else { return .failure(.textAfterClosingQuote) }
            } else {
                while index < scalars.count, scalars[index] != "," {
                    field.append(scalars[index])
                    index += 1
                }
            }
            fields.append(trimmed(String(field)))
            guard index < scalars.count else { return .success(fields) }
            index += 1  // the comma
        }
    }

    /// `text` without leading and trailing whitespace.
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let start = scalars.firstIndex(where: { !isBlank($0) }),
            let end = scalars.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(scalars[start...end])
    }

    /// Whitespace that may surround a code (spaces, tabs, no-break spaces and other Unicode white space).
    static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar == "\u{FEFF}"
    }
}
