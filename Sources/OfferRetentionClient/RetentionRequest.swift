import OfferRetentionAPI

/// One call of the Retention Messaging API and how it may be retried.
struct RetentionRequest: Sendable {
    /// What to do when an attempt's outcome is unknown (no answer within the timeout, a dropped
    /// connection after sending).
    enum AfterUnknownOutcome: Sendable {
        /// Send it again: the request is idempotent (a GET, a configuration that overwrites).
        case resend
        /// Ask `isDone` whether it took effect; send it again only when it did not (uploads: Apple
        /// refuses a second upload of the same identifier).
        case lookUp(isDone: @Sendable () async throws -> Bool)
        /// Stop: it must not be sent twice and cannot be looked up (Initiate Performance Test).
        case stop
    }

    /// Apple's name of the endpoint (`Upload Message`).
    var operation: String
    var method: String
    /// The path under the base URL, with its query.
    var path: String
    var body: [UInt8]? = nil
    var contentType = "application/json"
    var afterUnknownOutcome: AfterUnknownOutcome = .resend
    /// Apple's error that means "already done" when it answers a request sent again after an
    /// unknown outcome (`MessageNotFoundError` for a delete, `MessageAlreadyExistsError` for an upload).
    var doneWhenRefusedAgainWith: RetentionErrorCode? = nil

    /// `PUT /inApps/v1/messaging/message/…`, for messages.
    var label: String { "\(method) \(path)" }
}
