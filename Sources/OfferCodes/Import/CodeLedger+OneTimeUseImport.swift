extension CodeLedger {
    /// Attaches the codes Apple generated for a one-time-use batch (read from its CSV), recording
    /// the batch first when `codes generate` has not: what `offerkit codes import` and
    /// `offerkit codes apply` both do with App Store Connect's `values`.
    ///
    /// Atomic: when any code is already in the ledger for the app, nothing is attached and the
    /// taken codes are returned (at most `reportLimit` of them, and their count).
    ///
    /// - Parameters:
    ///   - codes: the codes, as ``AppleCodeCSV`` read them.
    ///   - batch: the batch as the ledger records it (kind ``LedgerBatch/Kind/oneTimeUse``).
    ///   - campaign: the campaign the batch belongs to, recorded with it.
    ///   - reportLimit: at most this many taken codes are returned (their count is always given).
    ///   - progress: called with the number of codes attached so far.
    /// - Returns: `nil` when the codes were attached; else the taken codes.
    /// - Throws: ``LedgerError`` (``LedgerError/alreadyImported(campaign:offer:index:codeCount:)``
    ///   when the batch has its codes already).
    public func importOneTimeUseCodes(
        _ codes: [String], batch: LedgerBatch, campaign: Campaign, reportLimit: Int = 10,
        progress: (Int) -> Void = { _ in }
    ) throws -> (taken: [String], count: Int)? {
        try recordBatch(batch, campaign: campaign) { _ in }
        do {
            try attachCodes(toOneTimeUseBatch: batch.index, offer: batch.offer, campaign: campaign.name) { insert in
                var taken = TakenCodes(codes: [], count: 0)
                for (index, code) in codes.enumerated() {
                    if try !insert(code) {
                        taken.count += 1
                        if taken.codes.count < reportLimit { taken.codes.append(code) }
                    }
                    progress(index + 1)
                }
                if taken.count > 0 { throw taken }
            }
        } catch let taken as TakenCodes {
            return (taken.codes, taken.count)
        }
        return nil
    }
}

/// Codes of an import that the ledger holds already: ends the import's transaction.
private struct TakenCodes: Error {
    var codes: [String]
    var count: Int
}
