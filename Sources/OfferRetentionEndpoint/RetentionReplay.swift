/// Whether an answer was made for this request or remembered from an earlier one with the same
/// `requestIdentifier`.
public enum RetentionReplay: String, Sendable, Hashable {
    /// Made now; no earlier request had this `requestIdentifier`.
    case fresh
    /// The same payload as an earlier request: the same bytes as then (same nonce, same signature).
    case replayed
    /// An earlier request had this `requestIdentifier` with another payload: answered afresh.
    case differentPayload
}
