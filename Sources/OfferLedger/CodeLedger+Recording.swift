import Foundation
import OfferCodes

/// The codes a batch is recorded with (``CodeLedger/recordBatch(_:campaign:codes:progress:)``).
public enum BatchCodes: Sendable, Equatable {
    /// No codes yet: a one-time-use batch, whose codes Apple generates and an import attaches.
    case none
    /// These codes, in this order (custom codes the campaign gives).
    case given([String])
    /// Codes drawn from `spec` with `random`, unique against every code of the app in the ledger
    /// (a code taken already is drawn again).
    case generated(CodeGenerationSpec, random: CodeRandomSource)
}

/// What ``CodeLedger/recordBatch(_:campaign:codes:progress:)`` and
/// ``CodeLedger/attachCodes(toOneTimeUseBatch:offer:campaign:codes:progress:)`` did.
public enum BatchRecording: Sendable, Equatable {
    /// The batch and its codes were recorded.
    case recorded
    /// The batch was recorded already; nothing changed.
    case alreadyRecorded
    /// Nothing was recorded: `count` of the codes given are issued for the app already (or given
    /// twice); `codes` are the first of them (at most ``CodeLedger/takenCodesShown``).
    case codesTaken(codes: [String], count: Int)
}

extension CodeLedger {
    /// How many taken codes ``BatchRecording/codesTaken(codes:count:)`` names.
    public static let takenCodesShown = 10

    /// What the ledger holds for an app, leaving out one campaign (the one being validated, so
    /// that checking a campaign again does not count it twice). Active offer names come in the
    /// order their campaigns and offers were first recorded.
    public func summary(appAppleId: String, quarter: String, excludingCampaign: String) async throws
        -> LedgerSummary
    {
        try await store.read("summarize app \(appAppleId)") { tx in
            try await summary(tx, appAppleId: appAppleId, quarter: quarter, excludingCampaign: excludingCampaign)
        }
    }

    func summary(_ tx: any LedgerTransaction, appAppleId: String, quarter: String, excludingCampaign: String)
        async throws -> LedgerSummary
    {
        var summary = LedgerSummary()
        summary.activeOfferNames = try await tx.activeOfferNames(
            appAppleId: appAppleId, excludingCampaign: excludingCampaign
        ).map { try StoredRow($0, table: "an offers row", path: name).text(0, "name") }
        let totals = try await quarterTotals(
            tx, appAppleId: appAppleId, quarter: quarter, excludingCampaign: excludingCampaign,
            batches: try await batches(tx, .all))
        summary.productionCodes = totals[.production] ?? 0
        summary.sandboxCodes = totals[.sandbox] ?? 0
        return summary
    }

    /// The redemptions the app's batches count in `quarter`, by environment, leaving out one
    /// campaign. `batches` are every batch of the ledger, checked, so that a damaged row cannot
    /// drop out of the sum unnoticed.
    func quarterTotals(
        _ tx: any LedgerTransaction, appAppleId: String, quarter: String, excludingCampaign: String?,
        batches: [StoredBatch]
    ) async throws -> [CodeEnvironment: Int] {
        let campaigns = Set(
            try await tx.appCampaigns(appAppleId: appAppleId).map {
                try StoredRow($0, table: "a campaigns row", path: name).text(0, "name")
            })
        var totals: [CodeEnvironment: Int] = [:]
        for stored in batches {
            let batch = stored.batch
            guard batch.quarter == quarter, campaigns.contains(batch.campaign), batch.campaign != excludingCampaign
            else { continue }
            let (sum, overflow) = (totals[batch.environment] ?? 0).addingReportingOverflow(batch.redemptions)
            guard !overflow else {
                throw LedgerError.corrupt(
                    path: name,
                    reason: "the codes recorded for app \(appAppleId) in \(quarter) add up to more than "
                        + "\(ProblemText.grouped(Int.max))")
            }
            totals[batch.environment] = sum
        }
        return totals
    }

    /// Which of `codes` other campaigns of the app issued, upper-cased. The answer comes from the
    /// unique index on the codes: ``checkIntegrity(thorough:)`` with `thorough` checks it.
    public func issuedCodes(appAppleId: String, among codes: [String], excludingCampaign: String) async throws
        -> Set<String>
    {
        let keys = codes.map { NewCode.key($0).text }
        return try await store.read("look up issued codes of app \(appAppleId)") { tx in
            var issued = Set<String>()
            for start in stride(from: 0, to: keys.count, by: Self.chunkSize) {
                let chunk = Array(keys[start..<min(start + Self.chunkSize, keys.count)])
                for row in try await tx.issuedCodeKeys(
                    appAppleId: appAppleId, keys: chunk, excludingCampaign: excludingCampaign)
                {
                    issued.insert(try StoredRow(row, table: "a codes row", path: name).text(0, "code_key"))
                }
            }
            return issued
        }
    }

    /// Records the campaign (its app, bundle ID and offers) without a batch, atomically, under the
    /// ledger's write lock: what a campaign of promotional, introductory and win-back offers only
    /// needs before `codes apply` records their App Store Connect resources. Recording it again
    /// changes nothing but a new bundle ID or new offers.
    ///
    /// - Throws: ``LedgerError/campaignRecordedForAnotherApp(campaign:recordedAppAppleId:appAppleId:)``,
    ///   ``LedgerError/activeOfferLimitExceeded(campaign:appAppleId:active:limit:)`` (nothing is
    ///   recorded then).
    public func recordCampaign(_ campaign: Campaign) async throws {
        try requireWritable("record campaign \"\(campaign.name)\"")
        let appAppleId = campaign.app.appAppleId
        try await store.write(.ledger, "record campaign \"\(campaign.name)\"") { tx in
            if let recorded = try await recordedApp(tx, campaign: campaign.name),
                recorded.app.appAppleId != appAppleId
            {
                throw LedgerError.campaignRecordedForAnotherApp(
                    campaign: campaign.name, recordedAppAppleId: recorded.app.appAppleId, appAppleId: appAppleId)
            }
            let offersBefore = try await tx.offerCount(campaign: campaign.name)
            _ = try await tx.upsertCampaign(campaign)
            if try await tx.offerCount(campaign: campaign.name) > offersBefore {
                try LedgerLimitCheck.checkActiveOffers(
                    try await tx.activeOfferCount(appAppleId: appAppleId), campaign: campaign.name,
                    appAppleId: appAppleId)
            }
        }
    }

    /// Records one batch of codes atomically: the campaign (or its new bundle ID) and all of its
    /// offers (new offers are active; a recorded offer keeps its switch), the batch, its codes
    /// and their digests, in one transaction that holds the ledger's write lock from its first
    /// read.
    ///
    /// The limits are checked against what the ledger holds then: the app's codes in the batch's
    /// quarter and environment (one-time-use counts plus custom codes times their redemption
    /// limit) may not exceed `CampaignLimits.productionCodesPerQuarter` or
    /// `CampaignLimits.sandboxCodesPerQuarter`, and the app's active offers may not exceed
    /// `CampaignLimits.activeOffersPerApp` once the campaign's new offers are recorded.
    ///
    /// - Parameters:
    ///   - batch: the batch to record: its campaign, offer, position, kind and count.
    ///   - campaign: the validated campaign the batch belongs to, recorded with it.
    ///   - codes: the batch's codes: none yet (one-time-use), given, or to be generated.
    ///   - progress: called with the number of codes recorded so far (after each chunk of 10,000);
    ///     what it throws stops the recording, and nothing of the batch is kept.
    /// - Returns: ``BatchRecording/alreadyRecorded`` when the batch was recorded before (nothing
    ///   changes), ``BatchRecording/codesTaken(codes:count:)`` when given codes are issued already.
    /// - Throws: ``LedgerError/campaignRecordedForAnotherApp(campaign:recordedAppAppleId:appAppleId:)``,
    ///   ``LedgerError/offerNotInCampaign(offer:campaign:)``, ``LedgerError/batchOfAnotherCampaign(batchCampaign:campaign:)``,
    ///   ``LedgerError/invalidBatch(campaign:offer:problem:)``, ``LedgerError/emptyCode(campaign:offer:)``,
    ///   ``LedgerError/quarterLimitExceeded(batch:appAppleId:limit:recorded:)``,
    ///   ``LedgerError/activeOfferLimitExceeded(campaign:appAppleId:active:limit:)`` (nothing is
    ///   recorded then), and `CodeGenerationError` for generated codes.
    @discardableResult
    public func recordBatch(
        _ batch: LedgerBatch, campaign: Campaign, codes: BatchCodes, progress: (Int) throws -> Void = { _ in }
    ) async throws -> BatchRecording {
        let operation = "record a batch of offer \"\(batch.offer)\" in campaign \"\(campaign.name)\""
        try requireWritable(operation)
        guard batch.campaign == campaign.name else {
            throw LedgerError.batchOfAnotherCampaign(batchCampaign: batch.campaign, campaign: campaign.name)
        }
        guard campaign.offers.contains(where: { $0.referenceName == batch.offer }) else {
            throw LedgerError.offerNotInCampaign(offer: batch.offer, campaign: campaign.name)
        }
        if let problem = Self.problem(with: batch) {
            throw LedgerError.invalidBatch(campaign: batch.campaign, offer: batch.offer, problem: problem)
        }
        let appAppleId = campaign.app.appAppleId
        do {
            return try await store.write(.ledger, operation) { tx in
                if let recorded = try await recordedApp(tx, campaign: campaign.name),
                    recorded.app.appAppleId != appAppleId
                {
                    throw LedgerError.campaignRecordedForAnotherApp(
                        campaign: campaign.name, recordedAppAppleId: recorded.app.appAppleId, appAppleId: appAppleId)
                }
                let recordedBatches = try await batches(tx, .all)
                if LedgerLimitCheck.isRecorded(batch, among: recordedBatches.map(\.batch)) { return .alreadyRecorded }
                let totals = try await quarterTotals(
                    tx, appAppleId: appAppleId, quarter: batch.quarter, excludingCampaign: nil, batches: recordedBatches
                )
                try LedgerLimitCheck.checkQuarter(
                    batch, appAppleId: appAppleId, recorded: totals[batch.environment] ?? 0)
                let offersBefore = try await tx.offerCount(campaign: campaign.name)
                let appId = try await tx.upsertCampaign(campaign)
                if try await tx.offerCount(campaign: campaign.name) > offersBefore {
                    try LedgerLimitCheck.checkActiveOffers(
                        try await tx.activeOfferCount(appAppleId: appAppleId), campaign: campaign.name,
                        appAppleId: appAppleId)
                }
                let batchId = try await tx.insertBatch(batch)
                let digest = try await insertCodes(
                    tx, codes, batchId: batchId, appId: appId, batch: batch, progress: progress)
                try await seal(tx, id: batchId, batch: batch, digest: digest)
                return .recorded
            }
        } catch let taken as TakenCodes {
            return .codesTaken(codes: taken.codes, count: taken.count)
        }
    }

    /// Attaches codes that Apple generated (imported from its CSV) to a recorded one-time-use
    /// batch, atomically, under the ledger's write lock.
    ///
    /// - Returns: ``BatchRecording/recorded``, or ``BatchRecording/codesTaken(codes:count:)``
    ///   (nothing attached) when some are issued for the app already or given twice.
    /// - Throws: ``LedgerError/unknownBatch(campaign:offer:index:)`` when no such batch is
    ///   recorded, ``LedgerError/alreadyImported(campaign:offer:index:codeCount:)`` when it has
    ///   codes, ``LedgerError/emptyCode(campaign:offer:)``.
    @discardableResult
    public func attachCodes(
        toOneTimeUseBatch index: Int, offer: String, campaign: String, codes: [String],
        progress: (Int) throws -> Void = { _ in }
    ) async throws -> BatchRecording {
        let operation = "attach codes to oneTimeUseCodes[\(index)] of offer \"\(offer)\" in campaign \"\(campaign)\""
        try requireWritable(operation)
        do {
            return try await store.write(.ledger, operation) { tx in
                let stored = try await batches(tx, .all).first {
                    $0.batch.campaign == campaign && $0.batch.offer == offer && $0.batch.kind == .oneTimeUse
                        && $0.batch.index == index
                }
                guard let stored else {
                    throw LedgerError.unknownBatch(campaign: campaign, offer: offer, index: index)
                }
                guard let app = try await recordedApp(tx, campaign: campaign) else {
                    throw LedgerError.corrupt(
                        path: name, reason: "campaign \(ProblemText.quoted(campaign)) has batches but no row of its own"
                    )
                }
                let codeCount = Int(try await tx.codeRowCount(batchId: stored.id))
                guard codeCount == stored.storedCodes else {
                    throw LedgerError.corrupt(
                        path: name,
                        reason: "\(StoredBatch.describe(stored.batch)) has \(ProblemText.grouped(codeCount)) codes in "
                            + "the ledger, but \(ProblemText.grouped(stored.storedCodes)) were recorded")
                }
                guard codeCount == 0 else {
                    throw LedgerError.alreadyImported(
                        campaign: campaign, offer: offer, index: index, codeCount: codeCount)
                }
                let digest = try await insertCodes(
                    tx, .given(codes), batchId: stored.id, appId: app.id, batch: stored.batch, progress: progress)
                try await seal(tx, id: stored.id, batch: stored.batch, digest: digest)
                return .recorded
            }
        } catch let taken as TakenCodes {
            return .codesTaken(codes: taken.codes, count: taken.count)
        }
    }

    /// Marks a recorded offer active or inactive (App Store Connect's `active` switch), so that
    /// inactive offers stop counting against the limit of active offers and hand out no codes.
    ///
    /// - Throws: ``LedgerError/unknownOffer(offer:campaign:)`` when the offer is not recorded, and
    ///   ``LedgerError/activeOfferLimitExceeded(campaign:appAppleId:active:limit:)`` when switching
    ///   it on would make more of the app's offers active than Apple allows.
    public func setOfferActive(_ active: Bool, offer: String, campaign: String) async throws {
        let operation = "mark offer \"\(offer)\" of campaign \"\(campaign)\" \(active ? "active" : "inactive")"
        try requireWritable(operation)
        try await store.write(.ledger, operation) { tx in
            guard let state = try await tx.offerState(campaign: campaign, offer: offer) else {
                throw LedgerError.unknownOffer(offer: offer, campaign: campaign)
            }
            let row = StoredRow(
                state, table: "offer \(ProblemText.quoted(offer)) of campaign \(ProblemText.quoted(campaign))",
                path: name)
            let current = try row.boolean(0, "active")
            let appAppleId = try row.text(2, "app_apple_id")
            if active, !current {
                try LedgerLimitCheck.checkActiveOffers(
                    try await tx.activeOfferCount(appAppleId: appAppleId) + 1, campaign: campaign,
                    appAppleId: appAppleId)
            }
            try await tx.setOfferActive(active, campaign: campaign, offer: offer)
            try await tx.bumpRevision(campaign: campaign, offer: offer)
        }
    }

    /// The batches recorded for a campaign, in the order they were recorded.
    public func batches(campaign: String) async throws -> [LedgerBatch] {
        try await store.read("list the batches of campaign \"\(campaign)\"") { tx in
            try await batches(tx, .all).filter { $0.batch.campaign == campaign }.map(\.batch)
        }
    }

    /// Calls `body` with every code of a campaign (optionally of one offer): batch by batch in the
    /// order they were recorded, each batch's codes in the order issued, read from one snapshot
    /// a chunk at a time, never all at once.
    ///
    /// Each code row is checked against its digest, and each batch's codes against the count and
    /// digest recorded with them once the batch is read: when they differ, this throws
    /// ``LedgerError/corrupt(path:reason:)`` after `body` has seen some of them, so discard what
    /// `body` produced.
    public func forEachCode(campaign: String, offer: String?, _ body: (IssuedCode) throws -> Void) async throws {
        try await store.read("read the codes of campaign \"\(campaign)\"") { tx in
            let selected = try await batches(tx, .all).filter {
                $0.batch.campaign == campaign && (offer == nil || $0.batch.offer == offer)
            }
            for stored in selected {
                let batch = stored.batch
                var issued = IssuedCode(
                    code: "", offer: batch.offer, kind: batch.kind, batchIndex: batch.index,
                    redemptionLimit: batch.redemptionLimit, expirationDate: batch.expirationDate,
                    environment: batch.environment)
                try await checkCodes(tx, of: stored) { code in
                    issued.code = code
                    try body(issued)
                }
            }
        }
    }

    /// The codes recorded for one custom-code batch, in the order they were issued (empty when the
    /// batch is not recorded). Use it to supply generated codes to `RequestPlanner`.
    public func customCodes(campaign: String, offer: String, batchIndex: Int) async throws -> [String] {
        var codes: [String] = []
        try await forEachCode(campaign: campaign, offer: offer) { issued in
            if issued.kind == .custom, issued.batchIndex == batchIndex { codes.append(issued.code) }
        }
        return codes
    }

    /// Attaches the codes Apple generated for a one-time-use batch (read from its CSV), recording
    /// the batch first when `codes generate` has not: what `offerkit codes import` and
    /// `offerkit codes apply` both do with App Store Connect's `values`.
    ///
    /// Atomic: when any code is already in the ledger for the app, nothing is attached and the
    /// taken codes are returned (the first ``takenCodesShown``, and their count).
    ///
    /// - Returns: `nil` when the codes were attached; else the taken codes.
    /// - Throws: ``LedgerError`` (``LedgerError/alreadyImported(campaign:offer:index:codeCount:)``
    ///   when the batch has its codes already).
    public func importOneTimeUseCodes(
        _ codes: [String], batch: LedgerBatch, campaign: Campaign, progress: (Int) throws -> Void = { _ in }
    ) async throws -> (taken: [String], count: Int)? {
        try await recordBatch(batch, campaign: campaign, codes: .none)
        let result = try await attachCodes(
            toOneTimeUseBatch: batch.index, offer: batch.offer, campaign: campaign.name, codes: codes,
            progress: progress)
        if case .codesTaken(let taken, let count) = result { return (taken, count) }
        return nil
    }

    /// What makes `batch` impossible to record (and to read back), or `nil`.
    package static func problem(with batch: LedgerBatch) -> String? {
        let largest = StoredBatch.largestNumber
        if !(0...largest).contains(batch.index) { return "its index is \(batch.index), expected 0 to \(largest)" }
        if !(1...largest).contains(batch.redemptionLimit) {
            return "its redemption limit is \(batch.redemptionLimit), expected 1 to \(largest)"
        }
        if batch.codeCount < 0 { return "its code count is \(batch.codeCount), expected 0 or more" }
        if !StoredBatch.isQuarter(batch.quarter) {
            return "its quarter is \(ProblemText.quoted(batch.quarter)), expected a quarter such as 2027-Q1"
        }
        return nil
    }

    // MARK: Inside the write transaction

    /// The app a campaign is recorded for, or `nil` when the campaign is not recorded.
    func recordedApp(_ tx: any LedgerTransaction, campaign: String) async throws
        -> (id: Int64, app: CampaignApp)?
    {
        guard let values = try await tx.campaignApp(campaign) else { return nil }
        let row = StoredRow(values, table: "campaign \(ProblemText.quoted(campaign))", path: name)
        let id = try row.id(0, "app_id")
        guard !row.isNull(1) else {
            throw LedgerError.corrupt(
                path: name, reason: "campaign \(ProblemText.quoted(campaign)) names an app that has no row")
        }
        return (id, CampaignApp(bundleId: try row.text(2, "bundle_id"), appAppleId: try row.text(1, "app_apple_id")))
    }

    /// Inserts the batch's codes (none of them taken: checked first, under the write lock) and
    /// returns their count and digest.
    private func insertCodes(
        _ tx: any LedgerTransaction, _ codes: BatchCodes, batchId: Int64, appId: Int64, batch: LedgerBatch,
        progress: (Int) throws -> Void
    ) async throws -> BatchDigest {
        var digest = BatchDigest()
        func insert(_ chunk: [String]) async throws {
            var rows: [NewCode] = []
            rows.reserveCapacity(chunk.count)
            for code in chunk {
                let seq = Int64(digest.count)
                let (key, keyIsCode) = NewCode.key(code)
                rows.append(
                    NewCode(
                        seq: seq, key: key, original: keyIsCode ? nil : code,
                        digest: CodeDigest.of(batchId: batchId, seq: seq, code: code)))
                digest.add(code)
            }
            try await tx.insertCodes(rows, batchId: batchId, appId: appId)
            try progress(digest.count)
        }
        switch codes {
        case .none:
            break
        case .given(let list):
            var seen = Set<String>()
            var taken = TakenCodes()
            for start in stride(from: 0, to: list.count, by: Self.chunkSize) {
                let chunk = list[start..<min(start + Self.chunkSize, list.count)]
                if chunk.contains(where: \.isEmpty) {
                    throw LedgerError.emptyCode(campaign: batch.campaign, offer: batch.offer)
                }
                let keys = chunk.map { NewCode.key($0).text }
                let issued = try await takenKeys(tx, appId: appId, keys: Array(Set(keys).subtracting(seen)))
                for (code, key) in zip(chunk, keys) where issued.contains(key) || !seen.insert(key).inserted {
                    taken.add(code)
                }
            }
            if taken.count > 0 { throw taken }
            for start in stride(from: 0, to: list.count, by: Self.chunkSize) {
                try await insert(Array(list[start..<min(start + Self.chunkSize, list.count)]))
            }
        case .generated(let spec, let random):
            var generator = try CodeGenerator(spec: spec, random: random)
            try await generator.generateUnique(
                count: spec.count, chunk: Self.chunkSize, prefix: spec.prefix,
                taken: { try await takenKeys(tx, appId: appId, keys: $0) }, emit: insert)
        }
        return digest
    }

    /// Which of `keys` the app's codes hold already.
    private func takenKeys(_ tx: any LedgerTransaction, appId: Int64, keys: [String]) async throws -> Set<String> {
        guard !keys.isEmpty else { return [] }
        return Set(
            try await tx.takenCodeKeys(appId: appId, keys: keys).map {
                try StoredRow($0, table: "a codes row", path: name).text(0, "code_key")
            })
    }

    /// Stores a batch's count and digests, gives it its code lanes, and marks its offer changed.
    private func seal(_ tx: any LedgerTransaction, id: Int64, batch: LedgerBatch, digest: BatchDigest) async throws {
        let codesDigest = digest.finalized()
        try await tx.sealBatch(
            id: id, storedCodes: digest.count, codesDigest: codesDigest,
            checksum: BatchDigest.checksum(of: batch, storedCodes: digest.count, codesDigest: codesDigest))
        let sealed = StoredBatch(id: id, batch: batch, storedCodes: digest.count, codesDigest: codesDigest)
        try await CodeLane.lanes(of: sealed) { try await tx.insertLanes($0) }
        try await tx.bumpRevision(campaign: batch.campaign, offer: batch.offer)
    }
}

/// Codes of a batch or an import that the ledger holds already: ends the transaction.
struct TakenCodes: Error {
    var codes: [String] = []
    var count = 0

    mutating func add(_ code: String) {
        count += 1
        if codes.count < CodeLedger.takenCodesShown { codes.append(code) }
    }
}
