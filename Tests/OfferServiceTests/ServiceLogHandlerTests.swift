import Foundation
import InteropSupport
import Logging
import Testing

@testable import OfferService

/// `offerkit serve`'s log lines: the same bytes as swift-log's `StreamLogHandler`, written from a
/// thread of their own, every one of them, whole and in order.
@Suite("ServiceLogHandler and LogWriter: StreamLogHandler's lines, written in batches, none lost")
struct ServiceLogHandlerTests {
    /// A pipe whose read end is drained on a thread of its own into `bytes`.
    final class Pipe: @unchecked Sendable {
        let writer: LogWriter
        private let lock = NSLock()
        private var collected: [UInt8] = []
        private var newlines = 0
        private let readEnd: Int32

        init(capacity: Int = 1 << 20) {
            var ends: [Int32] = [0, 0]
            precondition(pipe(&ends) == 0)
            readEnd = ends[0]
            writer = LogWriter(fileDescriptor: ends[1], capacity: capacity)
            OwnedThread.start { [self] in
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = read(readEnd, &buffer, buffer.count)
                    if count <= 0 { break }
                    let lines = buffer[..<count].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                    lock.withLock {
                        collected += buffer[..<count]
                        newlines += lines
                    }
                }
            }
        }

        /// Everything read so far, once `count` bytes have arrived (or 60 s passed); polls with
        /// `Task.sleep`.
        func text(atLeast count: Int) async -> String {
            let deadline = ContinuousClock.now + .seconds(60)
            while lock.withLock({ collected.count }) < count, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(1))
            }
            return lock.withLock { String(decoding: collected, as: UTF8.self) }
        }

        /// Everything read so far, once `count` lines have arrived (or 60 s passed): what `flush()`
        /// wrote is in the pipe, and the reading thread may not have read all of it yet.
        func text(lines count: Int) async -> String {
            let deadline = ContinuousClock.now + .seconds(60)
            while lock.withLock({ newlines }) < count, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
            return lock.withLock { String(decoding: collected, as: UTF8.self) }
        }
    }

    /// What `StreamLogHandler` writes, collected.
    struct Collected: TextOutputStream, @unchecked Sendable {
        let box: Box
        final class Box: @unchecked Sendable { var text = "" }
        mutating func write(_ string: String) { box.text += string }
    }

    @Test("a line is StreamLogHandler's line byte for byte, the timestamp aside")
    func sameLinesAsStreamLogHandler() async {
        let pipe = Pipe()
        let box = Collected.Box()
        var ours = Logger(label: "offerkit") { ServiceLogHandler(label: $0, writer: pipe.writer) }
        var theirs = Logger(label: "offerkit") { StreamLogHandler(label: $0, stream: Collected(box: box)) }
        ours[metadataKey: "request.id"] = "abc"
        theirs[metadataKey: "request.id"] = "abc"
        ours[metadataKey: "operation"] = "signPromotionalOffer"
        theirs[metadataKey: "operation"] = "signPromotionalOffer"
        struct Failure: Error {}
        for logger in [ours, theirs] {
            logger.info("request", metadata: ["http.status": .stringConvertible(200), "operation": "overridden"])
            logger.warning("no metadata of its own")
            logger.error("failed", error: Failure(), metadata: ["list": ["a", "b"], "map": ["k": "v"]])
            logger.debug("below the level, not written")
        }
        pipe.writer.flush()
        let expected = box.text
        let written = await pipe.text(atLeast: expected.utf8.count)
        let strip = { (text: String) in
            text.split(separator: "\n").map { $0.drop { $0 != " " } }.joined(separator: "\n")
        }
        #expect(strip(written) == strip(expected))
        #expect(written.split(separator: "\n").count == 3)
        for line in written.split(separator: "\n") {
            let timestamp = String(line.prefix { $0 != " " })
            #expect(timestamp.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}/) != nil, "\(timestamp)")
        }
    }

    @Test("lines from many threads arrive whole and all of them, also when the buffer fills and lines wait")
    func concurrentLinesArriveWhole() async {
        let pipe = Pipe(capacity: 4096)
        let threads = 8
        let perThread = 2_000
        // On threads of their own: a line waits for room in the full buffer, blocking its thread.
        _ = await Concurrently.run(threads) { thread in
            let logger = Logger(label: "t") { ServiceLogHandler(label: $0, writer: pipe.writer) }
            for index in 0..<perThread {
                logger.info("line", metadata: ["thread": "\(thread)", "index": "\(index)"])
            }
        }
        pipe.writer.flush()
        let lines = await pipe.text(lines: threads * perThread).split(separator: "\n")
        #expect(lines.count == threads * perThread)
        var seen = Set<String>()
        for line in lines {
            #expect(line.hasSuffix("[OfferServiceTests] line"), "\(line)")
            let key = line.split(separator: " ").filter { $0.hasPrefix("thread=") || $0.hasPrefix("index=") }
            seen.insert(key.joined(separator: " "))
        }
        #expect(seen.count == threads * perThread)
        // Each thread's own lines in the order it logged them.
        for thread in 0..<threads {
            let indices = lines.filter { $0.contains(" thread=\(thread) ") }.compactMap { line in
                line.split(separator: " ").first { $0.hasPrefix("index=") }.flatMap { Int($0.dropFirst(6)) }
            }
            #expect(indices == Array(0..<perThread))
        }
    }

    #if os(Linux)
        /// CPU time (user and system, in seconds) of each thread named `offerkit.log`, by thread id.
        static func writerThreadsCPU() -> [String: Double] {
            let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
            var times: [String: Double] = [:]
            for tid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? [] {
                let comm = (try? String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8)) ?? ""
                guard comm.hasPrefix("offerkit.log"),
                    let stat = try? String(contentsOfFile: "/proc/self/task/\(tid)/stat", encoding: .utf8),
                    let close = stat.lastIndex(of: ")")
                else { continue }
                // After "pid (comm)": state is field 3, utime and stime fields 14 and 15.
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
                    continue
                }
                times[tid] = (user + system) / ticks
            }
            return times
        }

        @Test("a full non-blocking descriptor (EAGAIN) makes the writer wait for room, not spin, and loses no line")
        func fullNonBlockingDescriptorDoesNotSpin() async throws {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            defer {
                close(ends[0])
                close(ends[1])
            }
            // Standard error shared with a process that made it non-blocking: write(2) answers EAGAIN when full.
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
            _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
            let writer = LogWriter(fileDescriptor: ends[1])
            let line = Array((String(repeating: "x", count: 1023) + "\n").utf8)
            let lines = 160  // 160 KiB: more than a pipe holds (64 KiB), less than the writer keeps (1 MiB)
            for _ in 0..<lines { writer.write(line) }
            try await Task.sleep(for: .milliseconds(300))  // the pipe is full, the writer has more to write
            let before = Self.writerThreadsCPU()
            try await Task.sleep(for: .seconds(1))
            let after = Self.writerThreadsCPU()
            let busiest = after.map { $0.value - (before[$0.key] ?? 0) }.max() ?? 0
            #expect(busiest < 0.25, "a writer thread used \(busiest) s of CPU in 1 s waiting for a full pipe")
            // Drained, every line arrives.
            var received = 0
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let deadline = Date().addingTimeInterval(60)
            while received < lines * line.count, Date() < deadline {
                let count = read(ends[0], &buffer, buffer.count)
                if count > 0 { received += count } else { try await Task.sleep(for: .milliseconds(5)) }
            }
            writer.flush()
            #expect(received == lines * line.count)
        }
    #endif
}
