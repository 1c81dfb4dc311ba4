/// A request body that had not arrived in full when its connection's body timer
/// (``ConnectionGuard``, the request timeout) expired: answered as a 408 `body-timeout`.
struct BodyTimeoutError: Error, Sendable {}
