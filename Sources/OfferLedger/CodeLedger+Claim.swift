import Foundation
import OfferCodes

extension CodeLedger {
    /// Hands out one code of the scope's offer to `recipient` and records it, with channel
    /// `AssignmentChannel.claim`; a recipient who holds a code of the scope gets the same one
    /// again (`isNew` `false`), so a retried claim is safe. See `ClaimPlan` for which code.
    ///
    /// One short transaction (`ClaimRequest`): the recipient's code, or the next code of the
    /// offer's lanes, checked against its digest, recorded, and committed (durably) before this
    /// returns. The offer's batches are read once and again only when they change. Two claims
    /// never get the same personal code, whatever process or host they run in, and a shared code
    /// is never handed out more times than its redemption limit.
    ///
    /// - Throws: ``LedgerError/invalidRecipient(position:problem:)``,
    ///   ``LedgerError/unknownOffer(offer:campaign:)``, ``LedgerError/offerInactive(offer:campaign:)``,
    ///   ``LedgerError/noCodeLeft(campaign:offer:environment:assigned:stored:)``,
    ///   ``LedgerError/nothingToAssign(campaign:offer:environment:reason:)``, and
    ///   ``LedgerError/corrupt(path:reason:)`` for a code row that does not match its digest.
    public func claim(recipient: String, scope: AssignmentScope) async throws -> CodeAssignment {
        try requireWritable("claim a code of offer \"\(scope.offer)\"")
        if let problem = RecipientId.problem(recipient) {
            throw LedgerError.invalidRecipient(position: nil, problem: problem)
        }
        var refresh = false
        for _ in 0..<Self.claimAttempts {
            let plan = try await plan(scope, refresh: refresh)
            let candidates = plan.candidates(on: scope.today)
            let request = ClaimRequest(
                scope: scope, recipient: recipient, channel: .claim, assignedAt: LedgerTimestamp.milliseconds(Date()),
                revision: plan.revision, batchIds: candidates.map(\.id), shared: !plan.isPersonal)
            let (values, isNew): ([LedgerValue], Bool)
            switch try await store.claim(request) {
            case .held(let row): (values, isNew) = (row, false)
            case .assigned(let row): (values, isNew) = (row, true)
            case .inactive: throw LedgerError.offerInactive(offer: scope.offer, campaign: scope.campaign)
            case .stale, .raced:
                refresh = true
                continue
            case .exhausted:
                let counts = try await store.read("count the codes handed out of offer \"\(scope.offer)\"") { tx in
                    try await assignmentCounts(tx, campaign: scope.campaign)
                }
                throw plan.exhausted(counts: counts)
            }
            var dates = DateCache()
            let stored = try StoredAssignment(
                StoredRow(values, table: "the claimed assignment", path: name), batchAt: 0, dates: &dates)
            guard let batch = plan.offerBatches[stored.batchId] else {
                // A batch recorded since the plan was read (another process handed out its code).
                refresh = true
                continue
            }
            return stored.assignment(recipient, campaign: scope.campaign, batch: batch.batch, isNew: isNew)
        }
        throw LedgerError.databaseFailure(
            operation: "claim a code of offer \"\(scope.offer)\"",
            reason: "the offer's batches changed \(Self.claimAttempts) times while the claim ran; try again")
    }

    /// How many times a claim reads the offer's batches before it gives up.
    static let claimAttempts = 8

    /// The plan of the scope's offer: the one remembered, or read now (`refresh`: the one
    /// remembered is out of date).
    func plan(_ scope: AssignmentScope, refresh: Bool) async throws -> ClaimPlan {
        let key = ClaimPlan.Key(scope)
        if !refresh, var plan = plans.withLock({ $0[key] }) {
            plan.scope = scope
            return plan
        }
        let plan = try await store.read("read the batches of offer \"\(scope.offer)\"") { tx in
            guard let state = try await tx.offerState(campaign: scope.campaign, offer: scope.offer) else {
                throw LedgerError.unknownOffer(offer: scope.offer, campaign: scope.campaign)
            }
            let row = StoredRow(state, table: "offer \(ProblemText.quoted(scope.offer))", path: name)
            return ClaimPlan(
                scope: scope, revision: try row.integer(1, "revision"),
                offerBatches: try await batches(tx, .offer(campaign: scope.campaign, offer: scope.offer)))
        }
        plans.withLock { $0[key] = plan }
        return plan
    }

    /// The campaign's assignments counted per batch: personal and shared.
    func assignmentCounts(_ tx: any LedgerTransaction, campaign: String) async throws
        -> [Int64: (personal: Int, shared: Int)]
    {
        var counts: [Int64: (personal: Int, shared: Int)] = [:]
        for values in try await tx.assignmentCounts(campaign: campaign) {
            let row = StoredRow(values, table: "an assignments row", path: name)
            let batch = try row.id(0, "batch_id")
            let count = try row.integer(2, "count", 0...Int.max)
            if try row.boolean(1, "shared") {
                counts[batch, default: (0, 0)].shared = count
            } else {
                counts[batch, default: (0, 0)].personal = count
            }
        }
        return counts
    }
}

/// An assignment as a store reads it back: `batch_id, seq, code, channel, assigned_at` from
/// column `batchAt` of a row (with the code's `digest` after `code` when `digest` is set).
struct StoredAssignment {
    let batchId: Int64
    let seq: Int64
    let code: String
    let digest: [UInt8]?
    let channel: AssignmentChannel
    let assignedAt: Date

    init(_ row: StoredRow, batchAt first: Int, digest hasDigest: Bool = false, dates: inout DateCache) throws {
        batchId = try row.id(first, "batch_id")
        seq = try row.integer(first + 1, "seq")
        code = try row.text(first + 2, "code")
        digest = hasDigest ? try row.blob(first + 3, "digest") : nil
        let next = first + (hasDigest ? 4 : 3)
        guard let channel = AssignmentChannel(rawValue: try row.text(next, "channel")) else {
            throw row.corrupt("channel", "export or claim")
        }
        self.channel = channel
        guard let date = dates.date(try row.text(next + 1, "assigned_at")) else {
            throw row.corrupt("assigned_at", "a time written YYYY-MM-DDTHH:MM:SS.sssZ")
        }
        assignedAt = date
    }

    /// The assignment, its code checked against its digest when it was read with one.
    func assignment(
        _ recipient: String, campaign: String, batches: [Int64: StoredBatch], path: String, isNew: Bool = false
    ) throws -> CodeAssignment {
        guard let batch = batches[batchId] else {
            throw LedgerError.corrupt(path: path, reason: "an assignment names a batch that has no row")
        }
        if let digest {
            try CodeDigest.check(digest, batchId: batchId, seq: seq, code: code, batch: batch.batch, path: path)
        }
        return assignment(recipient, campaign: campaign, batch: batch.batch, isNew: isNew)
    }

    func assignment(_ recipient: String, campaign: String, batch: LedgerBatch, isNew: Bool) -> CodeAssignment {
        CodeAssignment(
            recipient: recipient, campaign: campaign,
            code: IssuedCode(
                code: code, offer: batch.offer, kind: batch.kind, batchIndex: batch.index,
                redemptionLimit: batch.redemptionLimit, expirationDate: batch.expirationDate,
                environment: batch.environment),
            channel: channel, assignedAt: assignedAt, isNew: isNew)
    }
}
