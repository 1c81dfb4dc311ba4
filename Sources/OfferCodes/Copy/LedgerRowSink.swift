/// Receives a ledger's rows as a ``LedgerSnapshotReader`` streams them, in this order: the apps,
/// the campaigns, the offers, the batches (each list in recorded order, whole: they are small),
/// then each batch's codes (batch by batch in the order of the batches, each in chunks, in `seq`
/// order), then the assignments, then the App Store Connect resources (each in chunks, in `id`
/// order). A call that throws stops the stream, and the reader throws that error.
package protocol LedgerRowSink: AnyObject {
    func apps(_ rows: [LedgerRow.App]) throws
    func campaigns(_ rows: [LedgerRow.Campaign]) throws
    func offers(_ rows: [LedgerRow.Offer]) throws
    func batches(_ rows: [LedgerRow.Batch]) throws
    /// The next codes of `batch` (at most ``LedgerCopy/chunkSize``); every code of the batch's
    /// rows is sent, so that codes beyond its recorded count are noticed.
    func codes(_ chunk: [LedgerRow.Code], of batch: LedgerRow.Batch) throws
    /// The next assignments (at most ``LedgerCopy/chunkSize``).
    func assignments(_ chunk: [LedgerRow.Assignment]) throws
    /// The next App Store Connect resources (at most ``LedgerCopy/chunkSize``).
    func connectResources(_ chunk: [LedgerRow.ConnectResource]) throws
}
