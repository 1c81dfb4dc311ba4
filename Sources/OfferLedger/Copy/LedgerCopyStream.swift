import OfferCodes

/// The rows of a ``LedgerCopy`` on their way from the source to the target's loader: checks them
/// (the decisions are here, the same for every backend), counts them, and passes them on to the
/// target's transaction.
final class LedgerCopyStream: LedgerRowSink {
    private let loader: any LedgerTransaction
    private let source: String
    private let progress: (_ copied: Int, _ total: Int) throws -> Void

    /// What the source holds, as counted while it streams.
    private(set) var expected = LedgerRow.Counts()
    /// The source's batches, in order.
    private(set) var batches: [LedgerRow.Batch] = []

    private var appIds: Set<Int64> = []
    /// The app of each campaign.
    private var campaignApps: [String: Int64] = [:]
    private var offers: Set<[String]> = []
    private var batchesById: [Int64: LedgerRow.Batch] = [:]
    /// The batch whose codes come now (an index into ``batches``), and what came of them so far.
    private var current = 0
    private var digest = BatchDigest()
    private var copiedCodes = 0
    private var totalCodes = 0
    private var stage = Stage.apps
    /// The id of the last App Store Connect resource (they come in `id` order).
    private var lastResourceId: Int64?
    /// The id of the last price point (they come in `id` order).
    private var lastPricePointId: Int64?

    private enum Stage: Int, Comparable {
        case apps, campaigns, offers, batches, codes, assignments, connectResources, pricePoints, ended

        static func < (lhs: Stage, rhs: Stage) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    init(into loader: any LedgerTransaction, source: String, progress: @escaping (Int, Int) throws -> Void) {
        self.loader = loader
        self.source = source
        self.progress = progress
    }

    func apps(_ rows: [LedgerRow.App]) async throws {
        try enter(.apps)
        for row in rows {
            guard appIds.insert(row.id).inserted else { throw corrupt("two apps rows have the id \(row.id)") }
        }
        expected.apps += rows.count
        try await loader.load(.apps(rows))
    }

    func campaigns(_ rows: [LedgerRow.Campaign]) async throws {
        try enter(.campaigns)
        for row in rows {
            guard appIds.contains(row.appId) else {
                throw corrupt("campaign \(ProblemText.quoted(row.name)) names an app that has no row")
            }
            campaignApps[row.name] = row.appId
        }
        expected.campaigns += rows.count
        try await loader.load(.campaigns(rows))
    }

    func offers(_ rows: [LedgerRow.Offer]) async throws {
        try enter(.offers)
        for row in rows {
            guard campaignApps[row.campaign] != nil else {
                throw corrupt("offer \(ProblemText.quoted(row.name)) names a campaign that has no row")
            }
            offers.insert([row.campaign, row.name])
        }
        expected.offers += rows.count
        try await loader.load(.offers(rows))
    }

    func batches(_ rows: [LedgerRow.Batch]) async throws {
        try enter(.batches)
        for row in rows {
            guard offers.contains([row.batch.campaign, row.batch.offer]) else {
                throw corrupt("\(StoredBatch.describe(row.batch)) names an offer that has no row")
            }
            guard batchesById.updateValue(row, forKey: row.id) == nil else {
                throw corrupt("two batches rows have the id \(row.id)")
            }
            if row.storedCodes > 0 { expected.codesPerBatch[row.id] = row.storedCodes }
            totalCodes += row.storedCodes
        }
        batches += rows
        expected.batches += rows.count
        try await loader.load(.batches(rows))
    }

    func codes(_ chunk: [LedgerRow.Code], of batch: LedgerRow.Batch) async throws {
        try enter(.codes)
        // Batches come in order; one without codes gets no call: close the ones before it.
        while current < batches.count, batches[current].id != batch.id { try closeBatch() }
        guard current < batches.count else {
            throw corrupt("codes of batch \(batch.id) came out of the order of the batches")
        }
        guard let appId = campaignApps[batch.batch.campaign] else {
            throw corrupt("\(StoredBatch.describe(batch.batch)) has no campaign row")
        }
        for code in chunk {
            guard code.seq == Int64(digest.count) else {
                throw corrupt(
                    "the codes of \(StoredBatch.describe(batch.batch)) are not numbered 0, 1, 2, … (position "
                        + "\(digest.count) holds number \(code.seq))")
            }
            guard code.appId == appId else {
                throw corrupt("a code of \(StoredBatch.describe(batch.batch)) belongs to another app than its campaign")
            }
            guard Self.isStored(code) else {
                throw corrupt("a code of \(StoredBatch.describe(batch.batch)) does not match its upper-cased key")
            }
            guard code.digest == CodeDigest.of(batchId: batch.id, seq: code.seq, code: code.issued) else {
                throw corrupt(
                    "code number \(code.seq + 1) of \(StoredBatch.describe(batch.batch)) does not match its digest: it "
                        + "changed after OfferKit recorded it")
            }
            guard digest.count < batch.storedCodes else { throw countMismatch(batch, found: "more than") }
            digest.add(code.issued)
        }
        try await loader.load(.codes(chunk, batch: batch))
        copiedCodes += chunk.count
        try progress(copiedCodes, totalCodes)
    }

    func assignments(_ chunk: [LedgerRow.Assignment]) async throws {
        try enter(.assignments)
        for row in chunk {
            guard let batch = batchesById[row.batchId], (0..<Int64(batch.storedCodes)).contains(row.seq) else {
                throw corrupt("assignment \(row.id) names a code that has no row")
            }
            guard batch.batch.campaign == row.campaign, batch.batch.offer == row.offer,
                batch.batch.environment == row.environment
            else {
                throw corrupt("assignment \(row.id) names another campaign, offer or environment than its code's batch")
            }
            if let problem = RecipientId.problem(row.recipient) {
                throw corrupt("the recipient id of assignment \(row.id) \(problem)")
            }
        }
        expected.assignments += chunk.count
        try await loader.load(.assignments(chunk))
    }

    /// Checks each resource as the ledger's reads do (an offer code's offer exists, a promotional,
    /// introductory or win-back offer's campaign does, it keeps the rules of ``ConnectResource``);
    /// the rows go on as they are.
    func connectResources(_ chunk: [LedgerRow.ConnectResource]) async throws {
        try enter(.connectResources)
        for row in chunk {
            if let last = lastResourceId, row.id <= last {
                throw corrupt(
                    "the App Store Connect resources came out of the order of their ids (\(row.id) after \(last))")
            }
            lastResourceId = row.id
            if row.offerKind == .offerCode {
                guard offers.contains([row.campaign, row.offer]) else {
                    throw corrupt("App Store Connect resource \(row.id) names an offer that has no row")
                }
            } else if campaignApps[row.campaign] == nil {
                throw corrupt("App Store Connect resource \(row.id) names a campaign that has no row")
            }
            if let problem = row.resource.problem {
                throw corrupt("the recorded App Store Connect resource \(row.id) is damaged: \(problem)")
            }
        }
        expected.connectResources += chunk.count
        try await loader.load(.connectResources(chunk))
    }

    /// Checks that each resolved price point names a recorded campaign; the rows go on as they are.
    func pricePoints(_ chunk: [LedgerRow.PricePoint]) async throws {
        try enter(.pricePoints)
        for row in chunk {
            if let last = lastPricePointId, row.id <= last {
                throw corrupt("the price points came out of the order of their ids (\(row.id) after \(last))")
            }
            lastPricePointId = row.id
            guard campaignApps[row.campaign] != nil else {
                throw corrupt("price point row \(row.id) names a campaign that has no row")
            }
        }
        expected.pricePoints += chunk.count
        try await loader.load(.pricePoints(chunk))
    }

    /// Ends the stream: checks the codes of the batches not closed yet.
    func end() async throws {
        try enter(.ended)
    }

    /// Moves on to `stage`, which may not come before the current one; leaving the codes (or
    /// skipping them) checks every batch's codes first.
    private func enter(_ next: Stage) throws {
        guard next >= stage else { throw corrupt("its rows came out of order (\(next) after \(stage))") }
        if next > .codes, stage <= .codes {
            while current < batches.count { try closeBatch() }
        }
        stage = next
    }

    /// Checks the codes of the current batch against its count and digest, and moves to the next.
    private func closeBatch() throws {
        let batch = batches[current]
        guard digest.count == batch.storedCodes else {
            throw countMismatch(batch, found: ProblemText.grouped(digest.count))
        }
        guard digest.finalized() == batch.codesDigest else {
            throw corrupt(
                "the codes of \(StoredBatch.describe(batch.batch)) differ from the ones recorded (their checksum does "
                    + "not match)")
        }
        current += 1
        digest = BatchDigest()
    }

    /// Whether a code's key and text are stored as the ledger stores them: the key is the code
    /// upper-cased, and the code is kept only when it differs from its key.
    private static func isStored(_ code: LedgerRow.Code) -> Bool {
        guard !code.key.isEmpty else { return false }
        guard let text = code.code else { return NewCode.key(code.key).isCode }
        let (key, isCode) = NewCode.key(text)
        return !isCode && key == code.key
    }

    private func countMismatch(_ batch: LedgerRow.Batch, found: String) -> LedgerError {
        corrupt(
            "\(StoredBatch.describe(batch.batch)) has \(found) codes in the ledger, but "
                + "\(ProblemText.grouped(batch.storedCodes)) were recorded")
    }

    private func corrupt(_ reason: String) -> LedgerError {
        .corrupt(path: source, reason: reason)
    }
}
