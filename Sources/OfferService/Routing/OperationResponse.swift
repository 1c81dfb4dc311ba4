import OfferJSON
import OfferSigning

/// What an operation answers: a status, a body (JSON, or text for metrics) and extra headers.
public struct OperationResponse: Sendable {
    package enum Body: Sendable {
        case json(JSONValue)
        case text(String, mediaType: String)
        /// Bytes sent exactly as they are (the Get Retention Message endpoint's answers).
        case bytes([UInt8], mediaType: String)
    }

    public var status: Int
    package var body: Body
    public var headers: [(name: String, value: String)]
    /// Whether the response holds a secret or one-time value (a signature or token) that no cache
    /// may keep.
    public var noStore: Bool

    package init(
        status: Int = 200, body: JSONValue, headers: [(name: String, value: String)] = [], noStore: Bool = true
    ) {
        self.status = status
        self.body = .json(body)
        self.headers = headers
        self.noStore = noStore
    }

    package init(status: Int = 200, bytes: [UInt8], mediaType: String, noStore: Bool = true) {
        self.status = status
        self.body = .bytes(bytes, mediaType: mediaType)
        self.headers = []
        self.noStore = noStore
    }

    package init(status: Int = 200, text: String, mediaType: String, noStore: Bool = true) {
        self.status = status
        self.body = .text(text, mediaType: mediaType)
        self.headers = []
        self.noStore = noStore
    }
}
