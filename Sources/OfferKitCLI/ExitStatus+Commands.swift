import Foundation
import OfferCodes
import OfferConnectAPI
import OfferKitSigningCLI
import OfferLedger
import OfferRetentionClient
import OfferService
import OfferSnippets

extension ExitStatus {
    /// The exit status for an error of ours or the libraries'; `nil` for ArgumentParser's own.
    static func ofKnown(_ error: any Error) -> ExitStatus? {
        if let status = ofSigning(error) { return status }
        return switch error {
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
        // `serve`: --no-auth off loopback is a usage error; the rest is configuration (like --config).
        case let error as ConfigurationError:
            if case .unauthenticatedNonLoopback = error { .usage } else { .credentials }
        case is ServiceRunnerError: .io
        case let error as ConnectError:
            switch error {
            case .invalidBaseURL: .usage
            case .notAuthorized: .credentials
            case .unreachable, .unexpectedAnswer, .lookupFailed, .hourlyLimitSpent: .io
            case .planChanged, .notCreated, .refused, .productIdMismatch: .invalidInput
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
