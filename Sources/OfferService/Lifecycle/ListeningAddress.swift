/// Where a running service accepts connections: the bound IP address and port (the real port
/// when port 0 was asked for).
public struct ListeningAddress: Sendable, Equatable {
    /// The bound IP address, such as `127.0.0.1` or `::1`.
    public let host: String
    /// The bound TCP port.
    public let port: Int
    /// Whether connections speak TLS (HTTPS) rather than plain HTTP.
    public let isTLS: Bool

    public init(host: String, port: Int, isTLS: Bool = false) {
        self.host = host
        self.port = port
        self.isTLS = isTLS
    }

    /// The base URL, such as `http://127.0.0.1:8080`, `http://[::1]:8080` or, with TLS,
    /// `https://127.0.0.1:8443`.
    public var url: String {
        let scheme = isTLS ? "https" : "http"
        return host.contains(":") ? "\(scheme)://[\(host)]:\(port)" : "\(scheme)://\(host):\(port)"
    }
}
