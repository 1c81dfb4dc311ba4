/// An answer of the Retention Messaging API that OfferKit cannot read as Apple documents it: not
/// JSON, or a member missing, of another type or out of bounds. Messages never hold the answer.
public enum RetentionAnswerError: Error, Equatable, Sendable {
    /// The body is not JSON (or is over the size read).
    case notJSON(String)
    /// A member is missing or is not what Apple documents; `path` names it (`config.totalRequests`).
    case unexpected(path: String, expected: String)
}

extension RetentionAnswerError {
    /// What is wrong, for an error message.
    public var reason: String {
        switch self {
        case .notJSON(let reason): "a body that is not JSON (\(reason))"
        case .unexpected(let path, let expected): "\(path.isEmpty ? "the body" : path) is not \(expected)"
        }
    }
}
