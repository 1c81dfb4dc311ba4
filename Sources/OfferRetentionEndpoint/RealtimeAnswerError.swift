import Foundation

/// Why an answer of a Get Retention Message endpoint is not a valid `RealtimeResponseBody`, or
/// does not verify.
public enum RealtimeAnswerError: Error, LocalizedError, Equatable, Sendable {
    /// The answer is larger than ``RealtimeAnswer/maximumBytes``.
    case tooLarge(bytes: Int)
    /// The answer is not JSON.
    case notJSON(reason: String)
    /// A member is missing, unknown or of the wrong shape.
    case invalid(path: String, expected: String)
    /// A signature in the answer does not verify with the app's key, or signs something else.
    case notVerified(path: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .tooLarge(let bytes):
            "the answer is larger than \(RealtimeAnswer.maximumBytes) bytes (\(bytes) or more); not read"
        case .notJSON(let reason): "the answer is not JSON: \(reason)"
        case .invalid(let path, let expected): "\(path.isEmpty ? "the answer" : path): expected \(expected)"
        case .notVerified(let path, let reason): "\(path) does not verify: \(reason)"
        }
    }
}
