/// The one-time-use codes App Store Connect returns as `text/csv` (`GET …/oneTimeUseCodes/{id}/values`):
/// one code per line.
///
/// Parsing never fails: it keeps every well-formed code and reports every other line as a
/// ``Problem``, so a caller can refuse the import (or show what was wrong) with all problems at
/// once. Tolerated: a UTF-8 byte order mark, LF or CRLF line breaks, blank lines, whitespace
/// around a code, a code wrapped in double quotes, and one header line.
///
/// A header is the first non-blank line when it is not a code and names a column: letters,
/// spaces, `_` and `-` only, including the word "code" or "value" (`Code`, `Offer Code`,
/// `"codes"`). A line spelled like a code (`CODE`) is a code. A header-like line anywhere else
/// is a problem.
public struct AppleCodeCSV: Sendable, Equatable {
    /// A line that did not give a new code.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The 1-based line number.
        public var line: Int
        /// What is wrong, phrased to follow "line N", for example `repeats line 3: "ABC123"`.
        public var message: String

        public init(line: Int, message: String) {
            self.line = line
            self.message = message
        }

        /// `line 7 repeats line 3: "ABC123"`.
        public var description: String { "line \(line) \(message)" }
    }

    /// The longest code accepted.
    public static let maximumCodeLength = CampaignLimits.maximumCodeLength
    /// How many characters of a bad line a problem shows.
    static let clipLength = 48

    /// The codes, in file order, each once (upper-case A-Z and 0-9).
    public var codes: [String]
    /// Duplicates (naming both lines) and malformed lines, in file order.
    public var problems: [Problem]
    /// The line number of the header line that was skipped, if there was one.
    public var headerLine: Int?

    /// Parses the body of the CSV response.
    public static func parse(_ bytes: [UInt8]) -> AppleCodeCSV {
        var parser = AppleCodeCSVParser()
        bytes.withUnsafeBufferPointer { parser.parse($0) }
        return AppleCodeCSV(codes: parser.codes, problems: parser.problems, headerLine: parser.headerLine)
    }
}
