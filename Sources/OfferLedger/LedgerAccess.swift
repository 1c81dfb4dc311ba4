/// How a ledger is opened (``CodeLedger/sqlite(path:access:)``, and `CodeLedger.withPostgres`).
public enum LedgerAccess: Sendable, Equatable {
    /// Created when missing (an SQLite file with mode 0600, a PostgreSQL schema), its schema
    /// brought up to date: for what writes the ledger. Every method may be used.
    case readWrite
    /// An existing ledger, to be read only: nothing is created, migrated or written, and every
    /// method that would write throws ``LedgerError/readOnly(path:operation:)``. A ledger whose
    /// schema is older than this OfferKit's (or that holds no ledger tables yet) is
    /// ``LedgerError/olderSchema(path:applied:current:)``, never brought up to date.
    case readOnly
}
