import Foundation
import OfferKitSigningCLI
import OfferLedger

extension LedgerOfferCheck {
    /// The check of `sign promotional-offer --ledger` and `sign legacy-promotional-offer --ledger`,
    /// in the context of every command of the full `offerkit`: the ledger, opened to read only, must know
    /// the offer when it knows the product's promotional offers (`AppliedPromotionalOffers`). A
    /// refusal is invalid input (exit 4).
    static let ledger: Check = { ledger, bundleId, productId, offerIdentifier in
        do {
            try await appliedOffers(ledger: ledger).check(
                bundleId: bundleId, productId: productId, offerIdentifier: offerIdentifier)
        } catch let error as PromotionalOfferError {
            throw CLIError.invalidInput(error.message(naming: "--offer-identifier"))
        }
    }

    /// The promotional offers the ledger at `ledger` (`--ledger`: a path, `sqlite:PATH` or a
    /// PostgreSQL URL) records as created, read without writing anything.
    static func appliedOffers(ledger: String) async throws -> AppliedPromotionalOffers {
        let location = try LedgerLocator.location(ledger, option: "--ledger")
        if case .sqlite(let path) = location, !FileManager.default.fileExists(atPath: path) {
            throw CLIError.io(
                path: LedgerLocation.redacted(path),
                reason: "no ledger file there; --ledger names the ledger offerkit codes apply recorded the offers in")
        }
        return try await LedgerOptions.withLedger(location, access: .readOnly) {
            try await $0.appliedPromotionalOffers()
        }
    }
}
