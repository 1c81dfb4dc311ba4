import Logging
import OfferCodes
import OfferLedger
import OfferRetentionEndpoint

/// The code ledger a service hands out codes from (`POST /v1/codes/claim`) and reads campaign
/// status in (`GET /v1/campaigns/{name}/status`).
///
/// The service takes a ledger that is already open (`CodeLedger.sqlite(path:access:)`, or
/// `CodeLedger.withPostgres` from the `OfferLedgerPostgres` library, whose connections run as
/// long as the block that opened it), so that `OfferService` itself does not link a database
/// driver; `offerkit serve` opens the one its configuration's `"ledger"` names. The ledger is
/// async: its calls wait for the database without holding a thread.
public final class ServiceLedger: Sendable {
    /// The ledger.
    public let ledger: CodeLedger
    /// The promotional offers it knows, for the signing operations.
    let appliedOffers: AppliedOfferCache

    /// A ledger for the service.
    public init(_ ledger: CodeLedger) {
        self.ledger = ledger
        appliedOffers = AppliedOfferCache { try await ledger.appliedPromotionalOffers() }
    }

    /// The Get Retention Message endpoint's check of the promotional offers a decider names: the
    /// signing operations' copy of the ledger's offers (``AppliedOfferCache``), without waiting for
    /// a read (Apple waits about 700 ms in all), except for the first copy; failures to read are
    /// logged with `logger`.
    func retentionOfferCheck(logger: Logger) -> RetentionOfferCheck {
        let offers = appliedOffers
        return RetentionOfferCheck { bundleId, productId, offerIdentifier in
            await offers.checkWithoutWaiting(
                bundleId: bundleId, productId: productId, offerIdentifier: offerIdentifier,
                field: "promotionalOffer.offerIdentifier", firstRead: .milliseconds(300), logger: logger)
        }
    }

    /// Runs `body` with the ledger. A ``LedgerError`` becomes the service's problem for it
    /// (``CodeSchemas/problem(for:campaignField:)``); failures of the ledger itself (an
    /// unreachable server, a lock wait that ran out, damage) are logged under the request id and
    /// answered 503 `ledger-unavailable` (with `Retry-After`), saying nothing about their cause.
    ///
    /// The request timeout is answered on time: when the calling task is cancelled, this throws
    /// `CancellationError` at once, without waiting for `body`, which runs in a task of its own
    /// and is cancelled too. A claim still waiting for its transaction then leaves the queue; one
    /// whose transaction is under way commits (or rolls back) on its own, and a code it assigned
    /// is the recipient's when they ask again.
    func run<T: Sendable>(
        logger: Logger, campaignField: String?, _ body: @escaping @Sendable (CodeLedger) async throws -> T
    ) async throws -> T {
        try await Self.run(ledger, logger: logger, campaignField: campaignField, body)
    }

    /// ``run(logger:campaignField:_:)`` with `ledger`.
    static func run<T: Sendable>(
        _ ledger: CodeLedger, logger: Logger, campaignField: String?,
        _ body: @escaping @Sendable (CodeLedger) async throws -> T
    ) async throws -> T {
        do {
            return try await Self.answeringCancellation { try await body(ledger) }
        } catch let error as LedgerError {
            let problem = CodeSchemas.problem(for: error, campaignField: campaignField)
            if problem.type == .ledgerUnavailable {
                // LedgerError messages name no code and show a URL without its password.
                logger.error("ledger failed", metadata: ["error": "\(error.localizedDescription)"])
            }
            throw problem
        }
    }

    /// `work`'s result, or `CancellationError` as soon as the calling task is cancelled (the
    /// work's task is cancelled then, and not waited for).
    static func answeringCancellation<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws
        -> T
    {
        let answer = Answer<T>()
        let task = Task {
            do {
                answer.resume(with: .success(try await work()))
            } catch {
                answer.resume(with: .failure(error))
            }
        }
        return try await withTaskCancellationHandler {
            try await answer.value()
        } onCancel: {
            task.cancel()
            answer.resume(with: .failure(CancellationError()))
        }
    }

    /// The first result given, for one waiting task.
    private final class Answer<T: Sendable>: Sendable {
        private enum State {
            case waiting(CheckedContinuation<T, any Error>?)
            case answered(Result<T, any Error>)
        }
        private let state = LockedValue(State.waiting(nil))

        func value() async throws -> T {
            try await withCheckedThrowingContinuation { continuation in
                let answered = state.withLock { state -> Result<T, any Error>? in
                    if case .answered(let result) = state { return result }
                    state = .waiting(continuation)
                    return nil
                }
                if let answered { continuation.resume(with: answered) }
            }
        }

        /// Answers with `result`, unless answered already.
        func resume(with result: Result<T, any Error>) {
            let continuation = state.withLock { state -> CheckedContinuation<T, any Error>?? in
                guard case .waiting(let continuation) = state else { return nil }
                state = .answered(result)
                return .some(continuation)
            }
            if case .some(.some(let continuation)) = continuation { continuation.resume(with: result) }
        }
    }
}
