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
            throw ServiceProblem(.invalidField, detail: error.localizedDescription, field: field)
        }
    }

    /// The ledger's offers as read at most `maxAge` ago, or the last copy when the ledger does not
    /// answer (see the type's description).
    private func offers(maxAge: Duration, logger: Logger) async throws -> AppliedPromotionalOffers {
        let now = ContinuousClock.now
        let box = self.box
        let (copy, reading) = box.withLockedValue {
            state -> (AppliedPromotionalOffers?, Task<AppliedPromotionalOffers, any Error>?) in
            if let copy = state.copy, let readAt = state.readAt, now - readAt < maxAge { return (copy, nil) }
            if let reading = state.reading { return (state.copy, reading) }
            if let copy = state.copy, let attempted = state.attemptedAt, now - attempted < Self.retryAfterFailure {
                return (copy, nil)  // the ledger failed a moment ago
            }
            state.attemptedAt = now
            let reading = Task { [read] in
                defer { box.withLockedValue { $0.reading = nil } }
                let offers = try await read()
                box.withLockedValue { state in
                    state.copy = offers
                    state.readAt = now
                }
                return offers
            }
            state.reading = reading
            return (state.copy, reading)
        }
        guard let reading else { return copy ?? AppliedPromotionalOffers() }
        do {
            return try await Self.value(of: reading, within: Self.deadline)
        } catch {
            logger.error(
                "the ledger's promotional offers were not read; signing checks the last copy",
                metadata: ["error": "\(error.localizedDescription)", "copy": "\(copy == nil ? "none" : "kept")"])
            guard let copy else { throw CodeSchemas.ledgerUnavailable }
            return copy
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
