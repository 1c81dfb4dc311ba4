import Foundation

/// Writes log lines to a file descriptor (standard error) from a thread of its own, so that a
/// request never waits for a `write(2)`: lines are appended to a buffer in memory and written in
/// batches, in the order they were logged.
///
/// Bounded: when ``capacity`` bytes are waiting (the file descriptor is slower than the service,
/// say a full pipe), a line waits for room instead of being dropped, as a synchronous write would
/// wait. ``flush()`` returns once every line logged before it has been written; `offerkit serve`
/// calls it when the service has stopped, so a clean shutdown loses no line.
///
/// Every stored property is guarded by `condition` (hence `@unchecked Sendable`).
public final class LogWriter: @unchecked Sendable {
    /// Standard error, for `offerkit serve`.
    public static let standardError = LogWriter(fileDescriptor: 2)

    /// The most bytes kept waiting before a line waits for room.
    public let capacity: Int
    private let fileDescriptor: Int32
    private let condition = NSCondition()
    private var pending: [UInt8] = []
    /// Bytes appended so far, and bytes written (or given up on) so far, for ``flush()``.
    private var appended = 0
    private var written = 0
    private var started = false

    /// A writer to `fileDescriptor` keeping at most `capacity` bytes (at least 4 KiB) waiting.
    public init(fileDescriptor: Int32, capacity: Int = 1 << 20) {
        self.fileDescriptor = fileDescriptor
        self.capacity = max(4096, capacity)
    }

    /// Appends `line` (which ends in a newline) to what is written next.
    public func write(_ line: [UInt8]) {
        condition.lock()
        defer { condition.unlock() }
        if !started {
            started = true
            let thread = Thread { [self] in self.run() }
            thread.name = "offerkit.log"
            thread.start()
        }
        while !pending.isEmpty && pending.count + line.count > capacity { condition.wait() }
        let wasEmpty = pending.isEmpty
        pending.append(contentsOf: line)
        appended += line.count
        if wasEmpty { condition.broadcast() }
    }

    /// Returns once every line written before the call has reached the file descriptor.
    public func flush() {
        condition.lock()
        defer { condition.unlock() }
        let target = appended
        while written < target { condition.wait() }
    }

    /// The writer thread: takes everything waiting, writes it, and again, for the life of the process.
    private func run() {
        var batch: [UInt8] = []
        while true {
            condition.lock()
            while pending.isEmpty { condition.wait() }
            swap(&batch, &pending)
            condition.broadcast()  // room for lines that wait
            condition.unlock()
            batch.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let result = Foundation.write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if result > 0 {
                        offset += result
                    } else if result < 0, errno == EINTR || errno == EAGAIN {
                        continue
                    } else {
                        break  // closed or failing: these lines cannot be written anywhere
                    }
                }
            }
            condition.lock()
            written += batch.count
            condition.broadcast()  // for flush()
            condition.unlock()
            batch.removeAll(keepingCapacity: true)
        }
    }
}
