import Hummingbird
import Logging

/// The per-request context: Hummingbird's core storage plus the request id and the API key name
/// once the request is authenticated.
public struct ServiceRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The request's id: the caller's `X-Request-Id` when it is well formed, otherwise a fresh one.
    public var requestID: String = ""
    /// The name of the API key that authenticated this request, if any.
    public var apiKeyName: String?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
    }
}
