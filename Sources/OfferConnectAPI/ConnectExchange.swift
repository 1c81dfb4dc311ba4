/// One request `codes apply` sent and how it ended, for `--verbose`: method, path, status (or
/// what went wrong) and time. It never holds headers, tokens or bodies.
public struct ConnectExchange: Sendable, Equatable {
    public var method: String
    /// The path and query under the base URL.
    public var path: String
    /// The HTTP status, when an answer came.
    public var status: Int?
    /// What went wrong when no answer came (a timeout, a dropped connection).
    public var failure: String?
    /// From sending to the end of the answer.
    public var duration: Duration

    public init(method: String, path: String, status: Int?, failure: String?, duration: Duration) {
        self.method = method
        self.path = path
        self.status = status
        self.failure = failure
        self.duration = duration
    }

    /// `POST /v1/subscriptionOfferCodes 201 12 ms`.
    public var line: String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return "\(method) \(path) \(status.map(String.init) ?? "no answer (\(failure ?? "?"))") \(milliseconds) ms"
    }
}
