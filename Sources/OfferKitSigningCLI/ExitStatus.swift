import Foundation
import OfferSigning

/// The exit codes, as documented in `--help` and docs/signing.md.
package enum ExitStatus: Int32 {
    case ok = 0
    case verificationFailed = 1
    case usage = 2
    case credentials = 3
    case invalidInput = 4
    case io = 5
    /// `retention performance-test result` without `--wait` while the test runs (`EX_TEMPFAIL`).
    case pending = 75

    package static let helpText = """
        Exit codes: 0 ok, 1 verification failed, 2 usage, 3 key or credential problem, \
        4 input validation failed, 5 I/O, 75 still pending (retention performance-test result).
        """

    /// The exit codes of the `sign` commands, for the help of `offerkit` built with them alone.
    package static let signingHelpText = """
        Exit codes: 0 ok, 2 usage, 3 key or credential problem, 4 input validation failed, 5 I/O.
        """

    /// The exit status for an error of the command line or of the signing library; `nil` for any
    /// other (the full command line maps the rest, then ArgumentParser's own).
    package static func ofSigning(_ error: any Error) -> ExitStatus? {
        switch error {
        case let error as CLIError:
            switch error {
            case .usage: .usage
            case .credentials: .credentials
            case .invalidInput: .invalidInput
            case .io: .io
            case .verificationFailed: .verificationFailed
            }
        case is KeyLoadingError, is CredentialError, is SigningError: .credentials
        case is RequestValidationError, is RequestDecodingError: .invalidInput
        case is VerificationError: .verificationFailed
        case is CocoaError: .io
        default: nil
        }
    }
}
