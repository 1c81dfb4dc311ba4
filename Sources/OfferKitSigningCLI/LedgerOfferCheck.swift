import Foundation

/// How `sign promotional-offer` and `sign legacy-promotional-offer` check `--offer-identifier`
/// against a code ledger (`--ledger`): the full `offerkit` runs its commands with the check in their
/// ``CommandContext`` (it links the ledger); the sign-only build has none, and refuses `--ledger`
/// with the reason.
package enum LedgerOfferCheck {
    /// Checks that a signature for the app's product may name the offer: throws when the ledger
    /// knows the product's promotional offers and this is not one of them.
    package typealias Check =
        @Sendable (_ ledger: String, _ bundleId: String, _ productId: String, _ offerIdentifier: String) async throws
        -> Void

    /// Runs the command's check, or refuses `--ledger` when it has none.
    static func check(ledger: String, bundleId: String, productId: String, offerIdentifier: String) async throws {
        guard let check = CommandContext.current.ledgerOfferCheck else {
            throw CLIError.usage(
                "--ledger needs the full offerkit (built with its AllCommands trait): this build signs only, and has "
                    + "no code ledger to read the product's promotional offers from")
        }
        try await check(ledger, bundleId, productId, offerIdentifier)
    }
}
