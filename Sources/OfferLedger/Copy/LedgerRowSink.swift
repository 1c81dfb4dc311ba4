/// Receives a ledger's rows as ``CodeLedger/streamSnapshot(into:)`` reads them, in this order:
/// the apps, the campaigns, the offers, the batches (each list in recorded order, whole: they are
/// small), then each batch's codes (batch by batch in the order of the batches, each in chunks,
/// in `seq` order), then the assignments, then the App Store Connect resources (each in chunks,
/// in `id` order), then the resolved price points (in chunks, in `id` order). A call that throws
/// stops the stream, and the read throws that error.
package protocol LedgerRowSink: AnyObject {
    func apps(_ rows: [LedgerRow.App]) async throws
    func campaigns(_ rows: [LedgerRow.Campaign]) async throws
    func offers(_ rows: [LedgerRow.Offer]) async throws
    func batches(_ rows: [LedgerRow.Batch]) async throws
    /// The next codes of `batch` (at most ``CodeLedger/chunkSize``); every code of the batch's
    /// rows is sent, so that codes beyond its recorded count are noticed.
    func codes(_ chunk: [LedgerRow.Code], of batch: LedgerRow.Batch) async throws
    /// The next assignments (at most ``CodeLedger/chunkSize``).
    func assignments(_ chunk: [LedgerRow.Assignment]) async throws
    /// The next App Store Connect resources (at most ``CodeLedger/chunkSize``).
    func connectResources(_ chunk: [LedgerRow.ConnectResource]) async throws
    /// The next resolved price points (at most ``CodeLedger/chunkSize``).
    func pricePoints(_ chunk: [LedgerRow.PricePoint]) async throws
}
