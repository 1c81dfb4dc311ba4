import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP socket listening on 127.0.0.1 on a port the system chose, to occupy that port.
final class ListeningSocket {
    private let socket: Int32
    let port: Int

    init() throws {
        let descriptor = try LoopbackSocket.open()
        let bound = LoopbackSocket.withAddress(port: 0) { bind(descriptor, $0, $1) }
        guard bound == 0, listen(descriptor, 8) == 0 else {
            let code = errno
            close(descriptor)
            throw HTTPConnectionError(description: "bind/listen on 127.0.0.1 failed: errno \(code)")
        }
        self.socket = descriptor
        self.port = LoopbackSocket.localPort(of: descriptor)
    }

    deinit { close(socket) }
}
