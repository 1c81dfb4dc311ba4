import OfferConnectAPI

/// What the client reports while it works, for `--verbose`: each request (method, path, status,
/// time; never headers, tokens or bodies) and notes on what it decided (a retry, a lookup).
public enum RetentionEvent: Sendable {
    case exchange(ConnectExchange)
    case note(String)
}
