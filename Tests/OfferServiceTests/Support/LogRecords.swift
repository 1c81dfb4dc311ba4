import Foundation

/// The lines a ``CapturingLogHandler`` captured.
final class LogRecords: @unchecked Sendable {
    private let lock = NSLock()
    private var records: [LogRecord] = []

    var all: [LogRecord] { lock.withLock { records } }

    func append(_ record: LogRecord) { lock.withLock { records.append(record) } }
}
