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
        (socket, port) = try LoopbackSocket.listening()
    }

    deinit { close(socket) }
}
