import Foundation
import OfferCodes
import OfferConnect
import OfferConnectAPI
import OfferLedger
import OfferRetentionAPI
import OfferRetentionClient
import OfferService
import OfferSigning
import OfferSnippets

/// Errors the command line itself raises, each with its documented exit code.
enum CLIError: Error, LocalizedError {
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

    var errorDescription: String? {
        switch self {
        case .usage(let message), .credentials(let message), .invalidInput(let message): message
        case .io(let path, let reason): "\(path): \(reason)"
        case .verificationFailed(let reason): "verification failed: \(reason)"
        }
    }
}

/// The exit codes, as documented in `--help` and docs/signing.md.
enum ExitStatus: Int32 {
    case ok = 0
    case verificationFailed = 1
    case usage = 2
    case credentials = 3
    case invalidInput = 4
    case io = 5
    /// `retention performance-test result` without `--wait` while the test runs (`EX_TEMPFAIL`).
    case pending = 75

    static let helpText = """
        Exit codes: 0 ok, 1 verification failed, 2 usage, 3 key or credential problem, \
        4 input validation failed, 5 I/O, 75 still pending (retention performance-test result).
        """

    /// The exit status for an error of ours or the library's; `nil` for ArgumentParser's own.
    static func ofKnown(_ error: any Error) -> ExitStatus? {
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
        case is CampaignProblems, is CodeGenerationError, is ExportError, is RequestPlanningError: .invalidInput
        case let error as SnippetError:
            switch error {
            case .unknownLanguage, .unknownOperation, .invalidInput: .usage
            case .templateDirectoryNotFound, .unreadableTemplate: .io
            case .malformedTemplate, .missingPartial: .invalidInput
            }
        case is LedgerLocationError: .usage
        case let error as LedgerError:
            switch error {
            case .cannotOpen, .corrupt, .notALedger, .newerSchema, .olderSchema, .databaseFailure,
                .connectRunInProgress:
                .io
            default: .invalidInput
            }
        case is CocoaError: .io
        // `serve`: --no-auth off loopback is a usage error; the rest is configuration (like --config).
        case let error as ConfigurationError:
            if case .unauthenticatedNonLoopback = error { .usage } else { .credentials }
        case is ServiceRunnerError: .io
        case let error as ConnectError:
            switch error {
            case .invalidBaseURL: .usage
            case .notAuthorized: .credentials
            case .unreachable, .unexpectedAnswer, .lookupFailed, .hourlyLimitSpent: .io
            case .planChanged, .notCreated, .refused: .invalidInput
            }
        case let error as RetentionAPIError:
            switch error {
            case .notAuthorized: .credentials
            case .refused, .alreadyExists: .invalidInput
            case .unreachable, .rateLimited, .outcomeUnknown, .unexpectedAnswer: .io
            }
        case let outcome as PerformanceTestOutcome:
            switch outcome {
            case .failed: .verificationFailed
            case .pending: .pending
            case .resultUnread(_, let error): ofKnown(error) ?? .io
            }
        default: nil
        }
    }
}
