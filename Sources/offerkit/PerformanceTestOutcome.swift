import Foundation

/// How a performance test ended for the command line: `FAIL` is exit 1, still `PENDING` exit 75
/// (`EX_TEMPFAIL`: ask again later). The result itself is on stdout already.
enum PerformanceTestOutcome: Error, LocalizedError {
    case failed(String)
    case pending(String)

    var errorDescription: String? {
        switch self {
        case .failed(let reason): "the performance test failed: \(reason)"
        case .pending(let reason): reason
        }
    }
}
