import Logging

/// One captured log line: level, message and all metadata as strings.
struct LogRecord: Sendable {
    let level: Logger.Level
    let message: String
    let metadata: [String: String]
}
