import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The POSIX calls that ``HTTPConnection``, ``ListeningSocket`` and ``TricklingEndpoint`` share: a TCP socket, the
/// address 127.0.0.1:port, and the port the system gave a socket.
enum LoopbackSocket {
    /// A new IPv4 TCP socket.
    /// - Throws: when `socket(2)` fails.
    static func open() throws -> Int32 {
        #if canImport(Glibc)
            let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw HTTPConnectionError(description: "socket() failed: errno \(errno)") }
        return descriptor
    }

    /// Calls `body` (`connect(2)` or `bind(2)`) with the address 127.0.0.1:`port` and its length.
    static func withAddress(port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// A new socket listening on 127.0.0.1 on a port the system chose, and that port.
    /// - Throws: when `socket(2)`, `bind(2)` or `listen(2)` fails.
    static func listening(backlog: Int32 = 8) throws -> (descriptor: Int32, port: Int) {
        let descriptor = try open()
        let bound = withAddress(port: 0) { bind(descriptor, $0, $1) }
        guard bound == 0, listen(descriptor, backlog) == 0 else {
            let code = errno
            close(descriptor)
            throw HTTPConnectionError(description: "bind/listen on 127.0.0.1 failed: errno \(code)")
        }
        return (descriptor, localPort(of: descriptor))
    }

    /// The local port of `descriptor` (`getsockname(2)`).
    static func localPort(of descriptor: Int32) -> Int {
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: local.sin_port))
    }
}
