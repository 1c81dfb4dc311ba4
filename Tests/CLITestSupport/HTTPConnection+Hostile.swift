import Foundation
import InteropSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a client that misbehaves does on an ``HTTPConnection``: half-close, reset, send without
/// end. Every loop here is bounded in time, and runs on a thread of its own (``OwnedThread``).
extension HTTPConnection {
    /// What came back while the client sent without end, and when.
    struct Flood: Sendable {
        /// Bytes the server's side took before sending stopped (its buffers, and what it read).
        var sent = 0
        /// The `errno` that ended sending (`EPIPE` or `ECONNRESET` once the server closed).
        var sendError: Int32?
        /// Seconds from the start until sending failed.
        var sendFailedAfter: Double?
        /// Seconds from the start until the server ended its side (end of stream or reset).
        var closedAfter: Double?
        /// Everything the server sent.
        var received: [UInt8] = []
    }

    /// Half-closes the connection: the server reads the end of the stream; answers can still be read.
    func finishSending() {
        shutdown(socket, Int32(SHUT_WR))
    }

    /// Closes the connection with a reset (`SO_LINGER` 0) instead of an orderly close.
    func reset() {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        shutdown(socket, Int32(SHUT_RDWR))
    }

    /// Reads until the server ends the connection (end of stream or reset), for at most `seconds`.
    /// - Returns: the bytes read and whether the server ended the connection within the time.
    func readUntilClosed(seconds: Double) async -> (bytes: [UInt8], closed: Bool) {
        await OwnedThread.run { self.readUntilClosedBlocking(seconds: seconds) }
    }

    private func readUntilClosedBlocking(seconds: Double) -> (bytes: [UInt8], closed: Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while Date() < deadline {
            guard wait(for: Int16(POLLIN), milliseconds: 50) else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                bytes += buffer[..<count]
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                return (bytes, true)
            }
        }
        return (bytes, false)
    }

    /// Sends zeros as fast as the connection takes them, reading whatever comes back, until
    /// sending fails and the server has ended its side, or `seconds` pass.
    func flood(seconds: Double) async -> Flood {
        await OwnedThread.run { self.floodBlocking(seconds: seconds) }
    }

    private func floodBlocking(seconds: Double) -> Flood {
        let start = Date()
        var flood = Flood()
        let zeros = [UInt8](repeating: UInt8(ascii: "0"), count: 65_536)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while flood.sendError == nil || flood.closedAfter == nil {
            let elapsed = Date().timeIntervalSince(start)
            if elapsed > seconds { break }
            let events = (flood.closedAfter == nil ? Int16(POLLIN) : 0) | (flood.sendError == nil ? Int16(POLLOUT) : 0)
            guard wait(for: events, milliseconds: 20) else { continue }
            if flood.closedAfter == nil {
                let count = buffer.withUnsafeMutableBytes {
                    recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                }
                if count > 0 {
                    flood.received += buffer[..<count]
                } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                    flood.closedAfter = elapsed
                }
            }
            if flood.sendError == nil {
                #if canImport(Glibc)
                    let flags = Int32(MSG_DONTWAIT | MSG_NOSIGNAL)
                #else
                    let flags = Int32(MSG_DONTWAIT)
                #endif
                let sent = zeros.withUnsafeBytes { Self.systemSend(socket, $0.baseAddress, $0.count, flags) }
                if sent > 0 {
                    flood.sent += sent
                } else if errno != EAGAIN && errno != EWOULDBLOCK {
                    flood.sendError = errno
                    flood.sendFailedAfter = elapsed
                }
            }
        }
        return flood
    }

    /// Whether `events` happen on the socket within `milliseconds` (an error or hang-up counts).
    private func wait(for events: Int16, milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: socket, events: events, revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    private static func systemSend(_ socket: Int32, _ buffer: UnsafeRawPointer?, _ length: Int, _ flags: Int32) -> Int {
        #if canImport(Glibc)
            Glibc.send(socket, buffer, length, flags)
        #else
            Darwin.send(socket, buffer, length, flags)
        #endif
    }
}
