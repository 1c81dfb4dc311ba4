/// A ledger that ``LedgerCopy`` can read from: it streams every row it holds, as of one snapshot.
///
/// ``SQLiteLedger`` and `PostgresLedger` implement it.
package protocol LedgerSnapshotReader {
    /// The ledger as messages name it (a URL without its password).
    var copyName: String { get }

    /// Streams every row of the ledger into `sink` (see ``LedgerRowSink`` for the order), all of
    /// it read in one read transaction, so that it is one commit's state, whatever other
    /// processes write meanwhile. Codes, assignments and App Store Connect resources are read a
    /// chunk at a time, never all at once. Rows are checked as the ledger's own reads check them (values of the types and
    /// ranges OfferKit writes, batch rows matching their checksums); anything else throws
    /// ``LedgerError/corrupt(path:reason:)``.
    func streamSnapshot(into sink: any LedgerRowSink) throws
}
