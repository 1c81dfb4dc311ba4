import OfferAppleVerification

/// What the endpoint does with a request: answer it (200 with ``RetentionAnswer/body``) or refuse
/// it (401, saying nothing of why).
public enum RetentionOutcome: Sendable {
    /// A verified request, answered.
    case answered(RetentionAnswer)
    /// A request that did not verify, is for another app or environment, or is stale.
    case unauthorized(RetentionRejection)
}

/// The answer to a verified request.
public struct RetentionAnswer: Sendable {
    /// What it chose.
    public let kind: RetentionAnswerKind
    /// The `RealtimeResponseBody` JSON: exactly one of Apple's members, or `{}`.
    public let body: [UInt8]
    /// The verified request.
    public let request: DecodedRealtimeRequestBody
    /// The app it was for.
    public let bundleId: String
    /// Whether it repeats an earlier answer.
    public let replay: RetentionReplay
    /// Why the decision was not answered, when ``kind`` is ``RetentionAnswerKind/hookFailed``.
    public let hookFailure: RetentionHookFailure?
}
