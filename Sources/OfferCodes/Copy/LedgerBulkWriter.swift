/// A ledger that ``LedgerCopy`` can write to: it loads rows in bulk, in one write transaction.
///
/// ``SQLiteLedger`` and `PostgresLedger` implement it.
package protocol LedgerBulkWriter {
    /// The ledger as messages name it (a URL without its password).
    var copyName: String { get }

    /// Runs `body` in one write transaction that holds the ledger's write lock (as every write of
    /// the ledger does), with a loader of rows: the transaction commits when `body` returns and
    /// rolls back when anything throws, so that the ledger gets all of the rows or none.
    func bulkLoad<T>(_ body: (any LedgerBulkLoader) throws -> T) throws -> T
}

/// Loads rows into a ledger inside ``LedgerBulkWriter/bulkLoad(_:)``'s transaction: the rows
/// come as a ``LedgerRowSink`` gets them, and are written as given (ids and order included).
package protocol LedgerBulkLoader: LedgerRowSink {
    /// What the ledger holds now, read in the transaction; the batch rows are read through the
    /// ledger's checks (their checksums must match).
    func recordedRows() throws -> LedgerRow.Counts

    /// Ends the load: the ledger's own numbering (PostgreSQL's identity sequences) continues
    /// after the ids loaded, so that what is recorded next gets new ids. Sends what is still
    /// queued first.
    func finish() throws
}
