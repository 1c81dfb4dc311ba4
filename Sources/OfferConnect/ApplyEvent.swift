import OfferConnectAPI

/// What a run reports while it works: for `--verbose`, the progress line and messages as they happen.
public enum ApplyEvent: Sendable {
    /// One request and how it ended.
    case exchange(ConnectExchange)
    /// Resources finished (in any way) of all the plan's.
    case progress(done: Int, total: Int)
    /// App Store Connect refused a resource.
    case refused(ApplySummary.Refusal)
    /// Something the user should know (a lookup, a wait).
    case note(String)
}
