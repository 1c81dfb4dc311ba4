import Foundation

/// A worker's log as the parent reads it: only whole lines count (a killed worker may not have
/// finished its last one).
struct ClaimLog {
    /// Each claim: recipient, code, whether the claim assigned it.
    var claims: [(recipient: String, code: String, isNew: Bool)] = []
    /// `error` lines, and lines that are not of the worker's format.
    var problems: [String] = []
    var done = false

    init(path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return }
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // The part after the last newline is an unfinished line (or empty).
        lines.removeLast()
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if fields == ["done"] {
                done = true
            } else if fields.count == 3, fields[0] != "error", fields[2] == "1" || fields[2] == "0" {
                claims.append((String(fields[0]), String(fields[1]), fields[2] == "1"))
            } else {
                problems.append(String(line))
            }
        }
    }

    /// How many whole lines the log at `path` holds.
    static func lineCount(path: String) -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        return data.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
    }
}
