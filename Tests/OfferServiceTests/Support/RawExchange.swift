import Foundation
import NIOCore
import NIOPosix

/// One TCP connection to a live service on loopback that sends what no HTTP client would (broken
/// framing, a half-close, an endless body) and records what came back and whether the server
/// closed the connection. Non-blocking (NIO), so it never holds one of the test runner's threads,
/// and bounded in time.
struct RawExchange: Sendable {
    /// Every byte the server sent.
    var received: [UInt8] = []
    /// Whether the server ended the connection (end of stream, or a reset) within the time.
    var closedByServer = false
    /// Whether sending the endless body failed (the connection was really closed, not only half).
    var floodFailed = false

    /// The first response's status code.
    var status: Int? {
        let text = String(decoding: received.prefix(64), as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 ") else { return nil }
        return Int(text.dropFirst(9).prefix(3))
    }

    /// The first response's head fields, names in lower case.
    var headers: [String: String] {
        let text = String(decoding: received, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return [:] }
        var fields: [String: String] = [:]
        for line in text[..<end.lowerBound].components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    /// The first response's problem `type` slug, if its body is a problem.
    var problemSlug: String? {
        let text = String(decoding: received, as: UTF8.self)
        guard let range = text.range(of: #""type":"urn:offerkit:problem:"#) else { return nil }
        return String(text[range.upperBound...].prefix { $0 != "\"" })
    }

    /// How many responses arrived (status lines).
    var responseCount: Int {
        String(decoding: received, as: UTF8.self).components(separatedBy: "HTTP/1.1 ").count - 1
    }

    /// Connects to 127.0.0.1:`port`, sends `request`, half-closes when asked, then sends zeros
    /// without end when `flood` is set, and reads until the server closes, until `enough` says so
    /// (then `grace` seconds more, to see a close that follows), or until `seconds` pass.
    static func run(
        port: Int, _ request: String, halfClose: Bool = false, flood: Bool = false, seconds: Double = 20,
        grace: Double = 0.3, enough: @escaping @Sendable (RawExchange) -> Bool = { _ in false }
    ) async throws -> RawExchange {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(
                        wrappingChannelSynchronously: channel,
                        configuration: .init(isOutboundHalfClosureEnabled: true))
                }
            }
        let result = Box()
        try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: request))
            if halfClose { outbound.finish() }
            await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    do {
                        for try await buffer in inbound {
                            result.update { $0.received += Array(buffer.readableBytesView) }
                        }
                    } catch {}
                    // The end of the stream, or a reset; not a cancellation by the time limit.
                    if !Task.isCancelled { result.update { $0.closedByServer = true } }
                    return true
                }
                if flood {
                    group.addTask {
                        let zeros = ByteBuffer(repeating: UInt8(ascii: "0"), count: 65_536)
                        while !Task.isCancelled {
                            do {
                                try await outbound.write(zeros)
                            } catch {
                                result.update { $0.floodFailed = true }
                                break
                            }
                        }
                        return true
                    }
                }
                if !flood {
                    // Once `enough` arrived, a close that follows comes within `grace`, or not at all.
                    group.addTask {
                        while !Task.isCancelled {
                            try? await Task.sleep(for: .milliseconds(20))
                            if enough(result.value) {
                                try? await Task.sleep(for: .seconds(grace))
                                return true
                            }
                        }
                        return true
                    }
                }
                group.addTask {
                    try? await Task.sleep(for: .seconds(seconds))
                    return false
                }
                // Done when the reader (and the flood) finished, or the time is up.
                var pending = flood ? 2 : 1
                while let finished = await group.next(), finished {
                    pending -= 1
                    if pending == 0 { break }
                }
                group.cancelAll()
            }
        }
        return result.value
    }

    /// The exchange so far, shared by the reading and writing tasks.
    private final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var exchange = RawExchange()

        var value: RawExchange { lock.withLock { exchange } }

        @discardableResult
        func update(_ change: (inout RawExchange) -> Void) -> RawExchange {
            lock.withLock {
                change(&exchange)
                return exchange
            }
        }
    }
}
