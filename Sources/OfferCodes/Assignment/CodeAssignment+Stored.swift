extension CodeAssignment {
    /// An assignment read back from a backend (`isNew` is `false`); `batches` are the ledger's
    /// batches by row id.
    package init(
        _ recipient: String, campaign: String, stored: StoredAssignment, batches: [Int64: LedgerBatch], path: String
    ) throws {
        guard let batch = batches[stored.batchId] else {
            throw LedgerError.corrupt(path: path, reason: "an assignment names a batch that has no row")
        }
        self.init(
            recipient: recipient, campaign: campaign,
            code: IssuedCode(
                code: stored.code, offer: batch.offer, kind: batch.kind, batchIndex: batch.index,
                redemptionLimit: batch.redemptionLimit, expirationDate: batch.expirationDate,
                environment: batch.environment),
            channel: stored.channel, assignedAt: stored.assignedAt, isNew: false)
    }
}
