import OfferJSON

/// Where a JSON syntax error is, as a line and column a person can find in an editor.
struct JSONSyntaxLocation: Equatable, Sendable {
    /// The parser's message without its byte offset, for example `expected ',' or '}'`.
    var reason: String
    /// 1-based line.
    var line: Int
    /// 1-based column, in Unicode scalars.
    var column: Int

    /// Locates `error`, which parsing `bytes` threw.
    ///
    /// The offset comes from the message when it names a byte, is the end of the input when the
    /// input ended too early, and is otherwise found by parsing shorter prefixes: the shortest
    /// prefix that fails with the same message ends just after the offending byte.
    init(of error: JSONValue.ParseError, in bytes: [UInt8]) {
        var reason = error.message
        let offset: Int
        if let range = reason.range(of: " at byte "), let byte = Int(reason[range.upperBound...]) {
            offset = byte
            reason = String(reason[..<range.lowerBound])
        } else if ["unexpected end", "unterminated", "truncated"].contains(where: { reason.hasPrefix($0) }) {
            offset = bytes.count
        } else {
            offset = Self.shortestFailingPrefix(of: bytes, failingWith: error.message) - 1
        }
        let before = bytes[..<min(max(offset, 0), bytes.count)]
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        self.reason = reason
        line = 1 + before.count(where: { $0 == UInt8(ascii: "\n") })
        column = 1 + String(decoding: before[lineStart...], as: UTF8.self).unicodeScalars.count
    }

    /// The smallest `n` such that the first `n` bytes fail to parse with `message` (the whole
    /// input does; a prefix that stops before the error fails with an end-of-input message instead).
    private static func shortestFailingPrefix(of bytes: [UInt8], failingWith message: String) -> Int {
        var low = 1
        var high = bytes.count
        while low < high {
            let middle = (low + high) / 2
            if fails(Array(bytes[..<middle]), with: message) { high = middle } else { low = middle + 1 }
        }
        return high
    }

    private static func fails(_ bytes: [UInt8], with message: String) -> Bool {
        do {
            _ = try JSONValue.parse(bytes)
            return false
        } catch {
            return error.message == message
        }
    }
}
