import OfferCodes

/// Copies a whole ledger into a new or empty one, whatever their backends (SQLite to PostgreSQL
/// and back, or schema to schema): campaigns, offers, batches, every code, every assignment and
/// every App Store Connect resource `codes apply` recorded (with App Store Connect's ids: a copy
/// without them would have `apply` create every offer a second time), with their ids, order and
/// times, as they are stored.
///
/// - The target must hold nothing recorded (``LedgerCopyError/targetNotEmpty(target:campaigns:batches:codes:assignments:)``).
/// - The source is read from one snapshot (``CodeLedger/streamSnapshot(into:)``), and checked as it is read:
///   each batch's codes must match the count and digest recorded with them, each code its batch's
///   app, each assignment a code that exists, each App Store Connect resource an offer that
///   exists and the rules of ``ConnectResource`` (``LedgerError/corrupt(path:reason:)`` names the
///   source otherwise). Rows are written as they are, not recorded anew.
/// - The target is written in one transaction that holds its write lock, rows as they are
///   (``LedgerTransaction/load(_:)``), its code lanes built from the assignments. Before it commits, the counts of apps, campaigns,
///   offers, batches, codes per batch, assignments and App Store Connect resources are read back
///   from the target, its batch rows through its own checks, and compared with the source's
///   (``LedgerCopyError/verificationFailed(target:what:expected:found:)``). Any failure rolls the
///   whole copy back: the target gets all of it or nothing.
/// - Codes, assignments and App Store Connect resources move ``CodeLedger/chunkSize`` at a time:
///   memory does not grow with the ledger.
package struct LedgerCopy {
    package let source: CodeLedger
    package let target: CodeLedger

    package init(from source: CodeLedger, to target: CodeLedger) {
        self.source = source
        self.target = target
    }

    /// What was copied: the counts (as verified in the target) and the batches, in order.
    package struct Report: Sendable {
        package var counts: LedgerRow.Counts
        package var batches: [LedgerRow.Batch]
    }

    /// Copies the source into the target; see the type's documentation.
    ///
    /// - Parameter progress: called after each chunk of codes with the codes copied so far and
    ///   the codes in all.
    /// - Throws: ``LedgerCopyError``, ``LedgerError`` (a damaged source or target, a failing
    ///   database), and whatever `progress` throws; nothing is written to the target then.
    @discardableResult
    package func run(progress: (_ copied: Int, _ total: Int) throws -> Void = { _, _ in }) async throws -> Report {
        try target.requireWritable("copy a ledger into this one")
        return try await target.store.write(.ledger, "copy a ledger into this one") { tx in
            let before = try await recordedRows(tx)
            guard before.isEmpty else {
                throw LedgerCopyError.targetNotEmpty(
                    target: target.name, campaigns: before.campaigns, batches: before.batches, codes: before.codes,
                    assignments: before.assignments)
            }
            return try await withoutActuallyEscaping(progress) { progress in
                let stream = LedgerCopyStream(into: tx, source: source.name, progress: progress)
                try await source.streamSnapshot(into: stream)
                try await stream.end()
                guard !stream.expected.isEmpty else { throw LedgerCopyError.sourceEmpty(source: source.name) }
                try await tx.finishLoad()
                try await target.buildLanes(tx, for: try await target.batches(tx, .all))
                let found = try await recordedRows(tx)
                try verify(found, against: stream.expected)
                return Report(counts: found, batches: stream.batches)
            }
        }
    }

    /// What the target holds now, read in the copy's transaction; the batch rows through the
    /// ledger's checks (their checksums must match).
    private func recordedRows(_ tx: any LedgerTransaction) async throws -> LedgerRow.Counts {
        var counts = try await tx.rowCounts()
        counts.batches = try await target.batches(tx, .all).count
        return counts
    }

    /// Compares the target's counts with the source's.
    private func verify(_ found: LedgerRow.Counts, against expected: LedgerRow.Counts) throws {
        func check(_ what: String, _ expected: Int, _ found: Int) throws {
            guard expected == found else {
                throw LedgerCopyError.verificationFailed(
                    target: target.name, what: what, expected: expected, found: found)
            }
        }
        try check("apps", expected.apps, found.apps)
        try check("campaigns", expected.campaigns, found.campaigns)
        try check("offers", expected.offers, found.offers)
        try check("batches", expected.batches, found.batches)
        try check("codes", expected.codes, found.codes)
        for id in Set(expected.codesPerBatch.keys).union(found.codesPerBatch.keys).sorted() {
            try check("codes in batch \(id)", expected.codesPerBatch[id] ?? 0, found.codesPerBatch[id] ?? 0)
        }
        try check("assignments", expected.assignments, found.assignments)
        try check("App Store Connect resources", expected.connectResources, found.connectResources)
        try check("price points", expected.pricePoints, found.pricePoints)
    }
}
