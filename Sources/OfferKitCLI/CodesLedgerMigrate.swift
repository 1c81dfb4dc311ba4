import ArgumentParser
import Foundation
import OfferCodes
import OfferKitSigningCLI
import OfferLedger

/// `offerkit codes ledger migrate`: brings a ledger of an older OfferKit up to date. Commands that
/// only read a ledger (validate, plan, status, export's listings, apply --dry-run, ledger copy's
/// source) never do; they name this command instead.
struct CodesLedgerMigrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Bring a ledger written by an older OfferKit up to date (commands that only read it never do).",
        discussion: """
            Adds the tables and columns this OfferKit's ledger has, in one transaction: the ledger is brought up to \
            date whole or not at all. Commands that write the ledger (generate, import, claim, export \
            --recipients, apply, deactivate) bring it up to date too; commands that only read it (validate, plan, \
            status, export without --recipients, apply --dry-run, ledger copy's source) never change it, and stop \
            with exit 5 naming this command. A ledger that is already up to date is left as it is; a missing \
            ledger file is exit 5 (nothing is created).
            """)

    @OptionGroup var ledger: LedgerOptions

    func run() async throws {
        let location = try ledger.location()
        if case .sqlite(let path) = location, !FileManager.default.fileExists(atPath: path) {
            throw CLIError.io(path: LedgerLocation.redacted(path), reason: "no ledger file there; nothing was created")
        }
        let before: Int
        let current: Int
        do {
            try await LedgerOptions.withLedger(location, access: .readOnly) { _ in }
            Output.line("ledger \(location) is up to date; nothing was changed")
            return
        } catch LedgerError.olderSchema(_, let applied, let latest) {
            before = applied
            current = latest
        }
        try await LedgerOptions.withLedger(location) { try await $0.checkIntegrity() }
        Output.line("ledger \(location) brought up to date: schema version \(before) to \(current)")
    }
}
