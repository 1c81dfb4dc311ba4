import Foundation
import InteropSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP endpoint on 127.0.0.1 that answers every request with a `200` head promising a body of
/// 100 bytes, then sends one byte every 300 ms: each read completes long before any read timeout,
/// but the whole answer takes 30 s. For the deadline of `retention try-endpoint`.
/// A `silent` one reads the request and never answers (not even the head) until it is stopped. Its
/// connections are served on threads of its own (``OwnedThread``), never on Swift's pool.
final class TricklingEndpoint: @unchecked Sendable {
    private let socket: Int32
    let port: Int
    private let silent: Bool
    private let stopped = NSLock()
    private var isStopped = false

    init(silent: Bool = false) throws {
        self.silent = silent
        (socket, port) = try LoopbackSocket.listening()
        OwnedThread.start { [self] in acceptLoop() }
    }

    /// Stops accepting; connections being answered end at their next byte.
    func stop() {
        stopped.withLock { isStopped = true }
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }

    private var done: Bool { stopped.withLock { isStopped } }

    #if canImport(Glibc)
        private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
        private static let noSignal: Int32 = 0  // Darwin has no MSG_NOSIGNAL (it would need SO_NOSIGPIPE)
    #endif

    private func acceptLoop() {
        while !done {
            let connection = accept(socket, nil, nil)
            guard connection >= 0 else { return }
            OwnedThread.start { [self] in answer(connection) }
        }
    }

    private func answer(_ connection: Int32) {
        defer { close(connection) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        // The request's head and body arrive at once from a client on loopback; one read is enough
        // to know it came (what it holds does not matter).
        guard read(connection, &buffer, buffer.count) > 0 else { return }
        if silent {
            while !done { OwnedThread.pause(0.1) }
            return
        }
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n".utf8)
        // send(2) with MSG_NOSIGNAL: a client that gave up closed the connection, and a write(2)
        // would raise SIGPIPE in the test process.
        guard send(connection, head, head.count, Self.noSignal) == head.count else { return }
        for _ in 0..<100 {
            OwnedThread.pause(0.3)
            if done || send(connection, [UInt8(ascii: " ")], 1, Self.noSignal) != 1 { return }
        }
    }
}
