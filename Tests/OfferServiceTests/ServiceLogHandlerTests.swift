import Foundation
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
        private let readEnd: Int32
        private let done = DispatchSemaphore(value: 0)

        init(capacity: Int = 1 << 20) {
            var ends: [Int32] = [0, 0]
            precondition(pipe(&ends) == 0)
            readEnd = ends[0]
            writer = LogWriter(fileDescriptor: ends[1], capacity: capacity)
            let thread = Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = read(readEnd, &buffer, buffer.count)
                    if count <= 0 { break }
                    lock.withLock { collected += buffer[..<count] }
                }
                done.signal()
            }
            thread.start()
        }

        /// Everything read so far, once `count` bytes have arrived (or 60 s passed).
        func text(atLeast count: Int) -> String {
            let deadline = Date().addingTimeInterval(60)
            while lock.withLock({ collected.count }) < count, Date() < deadline { usleep(1000) }
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
    func sameLinesAsStreamLogHandler() {
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
        let written = pipe.text(atLeast: expected.utf8.count)
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
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<threads {
                group.addTask {
                    let logger = Logger(label: "t") { ServiceLogHandler(label: $0, writer: pipe.writer) }
                    for index in 0..<perThread {
                        logger.info("line", metadata: ["thread": "\(thread)", "index": "\(index)"])
                    }
                }
            }
        }
        pipe.writer.flush()
        let lines = pipe.text(atLeast: 1).split(separator: "\n")
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
}
