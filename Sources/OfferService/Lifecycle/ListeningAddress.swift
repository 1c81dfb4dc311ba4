/// Where a running service accepts connections: the bound IP address and port (the real port
/// when port 0 was asked for).
public struct ListeningAddress: Sendable, Equatable {
    /// The bound IP address, such as `127.0.0.1` or `::1`.
    public let host: String
    /// The bound TCP port.
    public let port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// The base URL, such as `http://127.0.0.1:8080` or `http://[::1]:8080`.
    public var url: String {
        host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)"
    }
}
