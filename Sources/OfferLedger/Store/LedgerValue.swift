/// One value of a row as a ledger's store read it, before the ledger checks it (``StoredRow``).
///
/// Each store maps its own types to these (SQLite's storage classes, PostgreSQL's `bigint`,
/// `text`, `bytea` and `boolean`); times and booleans are read as text and 0 or 1 in the stores'
/// SQL, so that every value is decoded and range-checked once, by the same code, whatever the
/// backend.
package enum LedgerValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case text(String)
    case blob([UInt8])
    /// A value of a type OfferKit never writes (a float, say).
    case other
}
