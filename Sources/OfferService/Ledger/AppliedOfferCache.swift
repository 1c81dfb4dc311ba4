import Logging
import NIOConcurrencyHelpers
import OfferLedger
import OfferServiceContract

/// The promotional offers the service's ledger knows (`AppliedPromotionalOffers`), for the
/// signing operations, which run without a request timer of their own.
///
/// - A copy younger than ``maxAge`` answers without touching the ledger: a check costs a lookup
///   under a lock.
/// - An older copy is read again by one task at a time (every request that needs it waits for
///   that one read), at most ``deadline`` per wait; before a refusal, a copy older than
///   ``recheckAge`` is read again, so that an offer `codes apply` created a moment ago signs.
/// - When the ledger does not answer (a failure, or not within ``deadline``), the last copy
///   answers (offers are never taken out of a ledger, so it can only miss new ones), and the next
///   read is tried ``retryAfterFailure`` later; the failure is logged. Without any copy yet, the
///   signature is answered 503 `ledger-unavailable`.
final class AppliedOfferCache: Sendable {
    private struct State {
        var copy: AppliedPromotionalOffers?
        /// When `copy` was read.
        var readAt: ContinuousClock.Instant?
        /// When the last read started, whatever came of it.
        var attemptedAt: ContinuousClock.Instant?
        /// The read under way.
        var reading: Task<AppliedPromotionalOffers, any Error>?
    }

    static let maxAge: Duration = .seconds(5)
    static let recheckAge: Duration = .seconds(1)
    static let deadline: Duration = .seconds(2)
    static let retryAfterFailure: Duration = .seconds(1)

    /// Reads the ledger's offers.
    private let read: @Sendable () async throws -> AppliedPromotionalOffers
    private let box = NIOLockedValueBox(State())

    init(read: @escaping @Sendable () async throws -> AppliedPromotionalOffers) {
        self.read = read
    }

    /// Checks that a promotional offer's signature for the app may name `offerIdentifier`.
    ///
    /// - Throws: an `invalid-field` problem at `field` naming the product's offers when the ledger
    ///   knows the product's promotional offers and this is not one of them; 503
    ///   `ledger-unavailable` when the ledger has not answered once yet.
    func check(bundleId: String, productId: String, offerIdentifier: String, field: String, logger: Logger)
        async throws
    {
        let offers = try await offers(maxAge: Self.maxAge, logger: logger)
        guard (try? offers.check(bundleId: bundleId, productId: productId, offerIdentifier: offerIdentifier)) == nil
        else { return }
        do {
            try await self.offers(maxAge: Self.recheckAge, logger: logger).check(
                bundleId: bundleId, productId: productId, offerIdentifier: offerIdentifier)
        } catch let error as PromotionalOfferError {
            throw ServiceProblem(.invalidField, detail: error.message(naming: field), field: field)
        }
    }

    /// The check of the Get Retention Message endpoint, which Apple waits for about 700 ms in
    /// all: it answers from the copy it has and never waits for a read, except for the first copy
    /// (at most `firstRead`). A copy older than ``maxAge`` (or, before a refusal, ``recheckAge``)
    /// is read again in the background, so that the next request sees an offer `codes apply`
    /// created meanwhile.
    ///
    /// - Returns: `nil` to sign, or why not (the product's offers, or that none were read yet).
    func checkWithoutWaiting(
        bundleId: String, productId: String, offerIdentifier: String, field: String, firstRead: Duration,
        logger: Logger
    ) async -> String? {
        var (copy, reading) = begin(maxAge: Self.maxAge, logger: logger)
        if copy == nil, let reading {
            copy = try? await Self.value(of: reading, within: firstRead)
        }
        guard let copy else {
            return "the ledger's promotional offers were not read yet (the ledger did not answer within "
                + "\(firstRead)); nothing is signed until they are"
        }
        do {
            try copy.check(bundleId: bundleId, productId: productId, offerIdentifier: offerIdentifier)
            return nil
        } catch {
            // `check` throws PromotionalOfferError only (typed throws).
            _ = begin(maxAge: Self.recheckAge, logger: logger)  // read again for the next request
            return error.message(naming: field)
        }
    }

    /// The ledger's offers as read at most `maxAge` ago, or the last copy when the ledger does not
    /// answer (see the type's description).
    private func offers(maxAge: Duration, logger: Logger) async throws -> AppliedPromotionalOffers {
        let (copy, reading) = begin(maxAge: maxAge, logger: logger)
        guard let reading else { return copy ?? AppliedPromotionalOffers() }
        do {
            return try await Self.value(of: reading, within: Self.deadline)
        } catch {
            // A failed read logs itself; a read that is slow is logged here.
            if error is DeadlinePassed {
                logger.error(
                    "the ledger's promotional offers were not read; signing checks the last copy",
                    metadata: ["error": "\(error)", "copy": "\(copy == nil ? "none" : "kept")"])
            }
            guard let copy else { throw CodeSchemas.ledgerUnavailable }
            return copy
        }
    }

    /// The copy, and the read under way when the copy is older than `maxAge` (started now unless
    /// one is under way, or the last failed less than ``retryAfterFailure`` ago). A read that fails
    /// is logged with `logger` (once, by the read itself).
    private func begin(maxAge: Duration, logger: Logger) -> (
        AppliedPromotionalOffers?, Task<AppliedPromotionalOffers, any Error>?
    ) {
        let now = ContinuousClock.now
        let box = self.box
        return box.withLockedValue { state in
            if let copy = state.copy, let readAt = state.readAt, now - readAt < maxAge { return (copy, nil) }
            if let reading = state.reading { return (state.copy, reading) }
            if let copy = state.copy, let attempted = state.attemptedAt, now - attempted < Self.retryAfterFailure {
                return (copy, nil)  // the ledger failed a moment ago
            }
            state.attemptedAt = now
            let reading = Task { [read] in
                defer { box.withLockedValue { $0.reading = nil } }
                do {
                    let offers = try await read()
                    box.withLockedValue { state in
                        state.copy = offers
                        state.readAt = now
                    }
                    return offers
                } catch {
                    logger.error(
                        "the ledger's promotional offers were not read; the checks use the last copy",
                        metadata: ["error": "\(error.localizedDescription)"])
                    throw error
                }
            }
            state.reading = reading
            return (state.copy, reading)
        }
    }

    /// What `task` returns, if it does within `deadline`; the task goes on either way.
    private static func value(
        of task: Task<AppliedPromotionalOffers, any Error>, within deadline: Duration
    ) async throws -> AppliedPromotionalOffers {
        try await withThrowingTaskGroup(of: AppliedPromotionalOffers?.self) { group in
            // `task.value` alone would wait for the task whatever the deadline: this wait ends when cancelled.
            group.addTask { try await ServiceLedger.answeringCancellation { try await task.value } }
            group.addTask {
                try await Task.sleep(for: deadline)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let offers = first else { throw DeadlinePassed() }
            return offers
        }
    }

    /// The ledger did not answer within ``deadline``.
    private struct DeadlinePassed: Error, CustomStringConvertible {
        var description: String { "no answer within \(AppliedOfferCache.deadline)" }
    }
}
