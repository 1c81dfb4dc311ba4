import Foundation
import OfferSigning

/// Errors the command line itself raises, each with its documented exit code.
package enum CLIError: Error, LocalizedError {
    /// Options that do not fit together or are missing (exit 2).
    case usage(String)
    /// No usable key or credential (exit 3).
    case credentials(String)
    /// Input that fails validation (exit 4).
    case invalidInput(String)
    /// A file could not be read or written (exit 5).
    case io(path: String, reason: String)
    /// A signature did not verify (exit 1).
    case verificationFailed(String)

    package var errorDescription: String? {
        switch self {
        case .usage(let message), .credentials(let message), .invalidInput(let message): message
        case .io(let path, let reason): "\(path): \(reason)"
        case .verificationFailed(let reason): "verification failed: \(reason)"
        }
    }
}
