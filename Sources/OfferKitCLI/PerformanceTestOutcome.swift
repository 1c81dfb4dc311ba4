import Foundation

/// How a performance test ended for the command line: `FAIL` is exit 1, still `PENDING` exit 75
/// (`EX_TEMPFAIL`: ask again later). The result itself is on stdout already.
enum PerformanceTestOutcome: Error, LocalizedError {
    case failed(String)
    case pending(String)
    /// `start --wait` started the test (its requestId is on stdout) but could not read its result:
    /// exits as `error` does, and names the command that asks again (starting again is refused
    /// while the test runs).
    case resultUnread(requestId: String, error: any Error)

    var errorDescription: String? {
        switch self {
        case .failed(let reason): "the performance test failed: \(reason)"
        case .pending(let reason): reason
        case .resultUnread(let requestId, let error):
            "the performance test \(requestId) started, but its result could not be read ("
                + error.localizedDescription.replacingOccurrences(of: " Run the same command again later.", with: "")
                + "); do not start another: ask for its result with "
                + "`offerkit retention performance-test result \(requestId)` (add --wait to wait)"
        }
    }
}
