/// Why a decision was not answered and the request got `{}` instead (kind `hookFailed`).
public enum RetentionHookFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The decider threw; only the error's type is kept (its text could hold anything).
    case threw(errorType: String)
    /// The decider had not answered when its time budget was spent.
    case overran(budget: Duration)
    /// The caller was cancelled before the decider answered: the service's request timeout, or
    /// the client went away.
    case stopped
    /// The decision cannot be answered: a field the signing library refuses, or an Advanced
    /// Commerce request that is not a single change.
    case unusable(reason: String)

    public var description: String {
        switch self {
        case .threw(let errorType): "the decider threw \(errorType)"
        case .overran(let budget): "the decider did not answer within \(budget)"
        case .stopped: "the request was stopped (its timeout, or the client went away) before the decider answered"
        case .unusable(let reason): "the decision cannot be answered: \(reason)"
        }
    }
}
