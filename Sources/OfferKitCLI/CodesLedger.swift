import ArgumentParser

/// `offerkit codes ledger …`: operations on a whole ledger.
struct CodesLedger: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ledger",
        abstract: "Operations on a whole ledger: copy it between SQLite and PostgreSQL, bring an old one up to date.",
        subcommands: [CodesLedgerCopy.self, CodesLedgerMigrate.self])
}
