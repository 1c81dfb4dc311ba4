import Foundation
import OfferRetentionAPI

/// Why a Retention Messaging API call failed. Messages name the call (Apple's name of the
/// endpoint), Apple's error code and its meaning, and never hold a token or key material.
public enum RetentionAPIError: Error, Equatable, Sendable {
    /// Apple refused the bearer token (`401`, or `403` without an error body).
    case notAuthorized(operation: String, status: Int)
    /// Apple refused the request (`4xx`); `error` is Apple's error body when it sent one.
    case refused(operation: String, request: String, status: Int, error: RetentionErrorBody?)
    /// Apple could not be reached, or kept failing (`5xx`, `429`, timeouts), through every attempt.
    case unreachable(operation: String, reason: String)
    /// A `429` asked to wait longer than the client waits.
    case rateLimited(operation: String, seconds: Int64)
    /// A request that must not be sent twice got no answer: whether Apple processed it is unknown.
    case outcomeUnknown(operation: String, reason: String)
    /// Apple answered something that is not what it documents.
    case unexpectedAnswer(operation: String, status: Int, reason: String)
    /// An upload's identifier is already in Apple's list, asked before the upload: nothing was
    /// sent (Apple would refuse it with `MessageAlreadyExistsError` or `ImageAlreadyExistsError`).
    /// `kind` is `message` or `image`.
    case alreadyExists(operation: String, kind: String, identifier: String)

    /// Apple's error code, for a refusal with an error body.
    public var errorCode: Int64? {
        if case .refused(_, _, _, let error?) = self { return error.errorCode }
        return nil
    }
}

extension RetentionAPIError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .notAuthorized(let operation, let status):
            return "Apple refused the App Store Server API token for \(operation) (\(status)). Nothing was changed. "
                + "Expected an In-App Purchase key of the app's team that is not revoked: check the key (--key-file), "
                + "--key-id, --issuer-id and --bundle-id (the token's bid must be the app's bundle ID), and the "
                + "environment (--environment)."
        case .refused(let operation, let request, let status, let error):
            let detail = error.map(\.summary) ?? "no error body Apple documents"
            return "Apple refused \(operation) (\(request)) with \(status): \(detail)"
                + (detail.hasSuffix(".") || detail.hasSuffix(".\"") ? "" : ".")
        case .unreachable(let operation, let reason):
            return "The App Store Server API could not be reached for \(operation): \(reason). Run the same command "
                + "again later."
        case .rateLimited(let operation, let seconds):
            return "Apple's rate limit for \(operation) asks to wait \(seconds) s (Retry-After), longer than OfferKit "
                + "waits; run the same command again after that (the limits are per endpoint and app, counted per "
                + "hour; the sandbox has 10 % of production's)."
        case .outcomeUnknown(let operation, let reason):
            return
                "\(operation) got no answer (\(reason)): Apple may or may not have started it, and OfferKit does not "
                + "send it twice. Ask again later; a test already running is refused with "
                + "ExistingPerformanceTestRunError until it ends."
        case .unexpectedAnswer(let operation, let status, let reason):
            return "Apple answered \(operation) with \(status) and \(reason), not what Apple documents."
        case .alreadyExists(let operation, let kind, let identifier):
            return "\(operation): \(identifier) is already in Apple's \(kind) list, so nothing was sent (Apple would "
                + "refuse it as existing and keep the \(kind) it has). If an earlier upload of yours ended without an answer, it "
                + "may be that one: see its state with offerkit retention \(kind) list. Otherwise use a new \(kind) "
                + "identifier, or delete the old \(kind) first (offerkit retention \(kind) delete \(identifier))."
        }
    }
}
