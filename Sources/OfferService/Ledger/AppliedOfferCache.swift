import Logging
import NIOConcurrencyHelpers
import OfferLedger
import OfferServiceContract

/// The promotional offers the service's ledger knows (`AppliedPromotionalOffers`), for the
/// signing operations: read again when the copy is older than ``maxAge``, and once more (at most
/// every ``recheckAge``) before a signature is refused, so that an offer `codes apply` created a
/// moment ago is signable at once. Between reads, a check costs a dictionary lookup under a lock.
final class AppliedOfferCache: Sendable {
    private struct Copy {
        var offers: AppliedPromotionalOffers
        var readAt: ContinuousClock.Instant
    }

    /// How old the copy may be for a signature the ledger allows.
    static let maxAge: Duration = .seconds(5)
    /// How old the copy may be for a refusal.
    static let recheckAge: Duration = .seconds(1)

    /// Reads the ledger's offers (its failures as the service's problems).
    private let read: @Sendable (Logger) async throws -> AppliedPromotionalOffers
    private let copy = NIOLockedValueBox<Copy?>(nil)

    init(read: @escaping @Sendable (Logger) async throws -> AppliedPromotionalOffers) {
        self.read = read
    }

    /// Checks that a promotional offer's signature may name `offerIdentifier`.
    ///
    /// - Throws: an `invalid-field` problem at `field` naming the product's offers when the ledger
    ///   knows the product's promotional offers and this is not one of them; the ledger's problems
    ///   (503 `ledger-unavailable`) when it cannot be read.
    func check(productId: String, offerIdentifier: String, field: String, logger: Logger) async throws {
        if (try? await offers(maxAge: Self.maxAge, logger: logger).check(
            productId: productId, offerIdentifier: offerIdentifier)) != nil
        {
            return
        }
        do {
            try await offers(maxAge: Self.recheckAge, logger: logger).check(
                productId: productId, offerIdentifier: offerIdentifier)
        } catch let error as PromotionalOfferError {
            throw ServiceProblem(.invalidField, detail: error.localizedDescription, field: field)
        }
    }

    /// The ledger's offers, as read at most `maxAge` ago.
    private func offers(maxAge: Duration, logger: Logger) async throws -> AppliedPromotionalOffers {
        let now = ContinuousClock.now
        if let copy = copy.withLockedValue({ $0 }), now - copy.readAt < maxAge { return copy.offers }
        let offers = try await read(logger)
        copy.withLockedValue { copy in
            if copy == nil || copy!.readAt < now { copy = Copy(offers: offers, readAt: now) }
        }
        return offers
    }
}
