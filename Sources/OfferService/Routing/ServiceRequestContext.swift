import Hummingbird
import Logging
import NIOConcurrencyHelpers

/// The per-request context: Hummingbird's core storage plus the request id, and the operation and
/// API key name once the request reaches an operation and is authenticated.
///
/// Middlewares get copies of the context; ``operationId`` and ``apiKeyName`` live in storage that
/// every copy of one request's context shares, so the outer logging middleware sees what the
/// operation set.
public struct ServiceRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The request's id: the caller's `X-Request-Id` when it is well formed, otherwise a fresh one.
    public var requestId: String = ""
    private let annotations = Annotations()

    /// The name of the API key that authenticated this request, if any.
    public var apiKeyName: String? {
        get { annotations.values.withLockedValue { $0.apiKeyName } }
        nonmutating set { annotations.values.withLockedValue { $0.apiKeyName = newValue } }
    }

    /// More values for the request's log line, set by the operation (the Get Retention Message
    /// endpoint's `requestIdentifier` and decision).
    public var logMetadata: Logger.Metadata {
        get { annotations.values.withLockedValue { $0.logMetadata } }
        nonmutating set { annotations.values.withLockedValue { $0.logMetadata = newValue } }
    }

    /// The `operationId` of the operation that answers this request; `nil` when no route matched.
    public var operationId: String? {
        get { annotations.values.withLockedValue { $0.operationId } }
        nonmutating set { annotations.values.withLockedValue { $0.operationId = newValue } }
    }

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
    }

    /// What the operation learns about a request, shared by every copy of its context.
    private final class Annotations: Sendable {
        struct Values {
            var apiKeyName: String?
            var operationId: String?
            var logMetadata: Logger.Metadata = [:]
        }
        let values = NIOLockedValueBox(Values())
    }
}
