import Foundation
import InteropSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct HTTPConnectionError: Error, CustomStringConvertible {
    let description: String
}

/// A bare HTTP/1.1 client on a loopback TCP socket, made of POSIX calls only (independent of the
/// service's libraries), so that a test can send part of a request, act, and send the rest.
///
/// Reads give up after 60 s (a safety net so a broken server cannot hang the suite). They block a
/// thread, so they run on one of their own (``OwnedThread``), never on Swift's pool.
final class HTTPConnection: @unchecked Sendable {
    let socket: Int32
    /// This end's port.
    let localPort: Int
    /// The server's port.
    let port: Int

    /// Connects to 127.0.0.1:`port`.
    /// - Throws: when the connection is refused or fails.
    init(port: Int) throws {
        let descriptor = try LoopbackSocket.open()
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
            var one: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let connected = LoopbackSocket.withAddress(port: port) { connect(descriptor, $0, $1) }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw HTTPConnectionError(description: "connect to 127.0.0.1:\(port) failed: errno \(code)")
        }
        self.socket = descriptor
        self.localPort = LoopbackSocket.localPort(of: descriptor)
        self.port = port
    }

    deinit { close(socket) }

    /// Whether a new connection to 127.0.0.1:`port` is accepted by the kernel.
    static func accepts(port: Int) -> Bool { (try? HTTPConnection(port: port)) != nil }

    /// Sends every byte.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
                let flags = Int32(MSG_NOSIGNAL)
            #else
                let flags: Int32 = 0
            #endif
            let sent = bytes[offset...].withUnsafeBytes { systemSend(socket, $0.baseAddress, $0.count, flags) }
            guard sent > 0 else { throw HTTPConnectionError(description: "send failed: errno \(errno)") }
            offset += sent
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// The head of a request: request line, `Host`, `Content-Length` when there is a body, `extra` fields.
    static func head(
        _ method: String, _ path: String, headers extra: [(String, String)] = [], contentLength: Int? = nil
    ) -> String {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in extra { text += "\(name): \(value)\r\n" }
        if let contentLength { text += "Content-Length: \(contentLength)\r\n" }
        return text + "\r\n"
    }

    /// Reads one response: the head, then `Content-Length` bytes of body (or up to the end of the stream).
    func readReply() async throws -> HTTPReply {
        try await OwnedThread.run { try self.readReplyBlocking() }
    }

    private func readReplyBlocking() throws -> HTTPReply {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let end = Self.headerEnd(in: bytes) {
                let head = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
                let length = head.components(separatedBy: "\r\n")
                    .first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
                if let length, bytes.count >= end + 4 + length { break }
            }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            guard count > 0 else { throw HTTPConnectionError(description: "recv failed: errno \(errno)") }
            bytes += buffer[..<count]
        }
        guard let reply = HTTPReply.parse(bytes) else {
            throw HTTPConnectionError(
                description: "not an HTTP response (\(bytes.count) bytes): \(String(decoding: bytes, as: UTF8.self))")
        }
        return reply
    }

    /// The index of the blank line that ends the head.
    static func headerEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// Sends one request on a fresh connection (`Connection: close`) and reads the response.
    static func request(
        _ method: String, _ path: String, port: Int, headers: [(String, String)] = [], body: String? = nil
    ) async throws -> HTTPReply {
        let connection = try HTTPConnection(port: port)
        let bodyBytes = Array((body ?? "").utf8)
        try connection.send(
            head(
                method, path, headers: headers + [("Connection", "close")],
                contentLength: body.map { _ in bodyBytes.count }))
        try connection.send(bodyBytes)
        return try await connection.readReply()
    }

    /// How many bytes this connection sent that the server process has not read yet, from the
    /// kernel's table of TCP sockets (`/proc/net/tcp`, Linux); nil when the table cannot be read.
    func unreadByServer() -> Int? {
        guard let table = Self.readWhole("/proc/net/tcp") else { return nil }
        let serverEnd = String(format: "0100007F:%04X", port)
        let clientEnd = String(format: "0100007F:%04X", localPort)
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 4, fields[1] == serverEnd, fields[2] == clientEnd else { continue }
            let queues = fields[4].split(separator: ":")
            return queues.count == 2 ? Int(queues[1], radix: 16) : nil
        }
        return nil
    }
}

extension HTTPConnection {
    /// The whole of a file that reports no size, such as `/proc/net/tcp`, read to its end with
    /// `read(2)`: Foundation's `String(contentsOfFile:)` returns only its first page (about 26
    /// sockets), so a connection listed further down was not found while older sockets lingered.
    static func readWhole(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// `send(2)` (the class's own `send` methods hide the C function's name).
private func systemSend(_ socket: Int32, _ buffer: UnsafeRawPointer?, _ length: Int, _ flags: Int32) -> Int {
    #if canImport(Glibc)
        Glibc.send(socket, buffer, length, flags)
    #else
        Darwin.send(socket, buffer, length, flags)
    #endif
}
