import Foundation
import OfferCodes

/// What ``CodeLedger/assign(recipients:scope:channel:)`` did.
public struct AssignmentCounts: Sendable, Equatable {
    /// Recipients who got a code now.
    public var new: Int
    /// Recipients who held a code of the scope already (they keep it).
    public var held: Int

    public init(new: Int, held: Int) {
        self.new = new
        self.held = held
    }
}

extension CodeLedger {
    /// Hands out one code of the scope's offer to each recipient and records it. A recipient who
    /// already holds a code of the scope keeps it, so repeating a call is safe; see `ClaimPlan`
    /// for which code each recipient gets. Read the codes back with
    /// ``lookUpAssignments(recipients:scope:_:)`` (outside the transactions: other writers go on
    /// meanwhile).
    ///
    /// Codes leave in bulk here, so first, in a read transaction that holds no lock, every code of
    /// the batches it may hand out from is checked against its digest and the batch's count and
    /// digest (``LedgerError/corrupt(path:reason:)``: nothing is handed out then), and the offer
    /// must have a code left for every recipient who holds none (else nothing is recorded).
    /// The assignments are then written 20,000 recipients at a time, each
    /// group in a write transaction of its own (SQLite: the file's write lock; PostgreSQL: the
    /// offer's advisory lock and its code lanes), so that other writers, claims among them, wait
    /// for one group at most, never for the whole list. A call that fails midway (the process is
    /// killed, or claims elsewhere took the last codes meanwhile) keeps the groups it committed:
    /// calling it again gives those recipients the same codes and the others theirs.
    ///
    /// - Throws: ``LedgerError/invalidRecipient(position:problem:)``,
    ///   ``LedgerError/unknownOffer(offer:campaign:)``, ``LedgerError/offerInactive(offer:campaign:)``,
    ///   ``LedgerError/noCodeLeft(campaign:offer:environment:assigned:stored:)`` and
    ///   ``LedgerError/nothingToAssign(campaign:offer:environment:reason:)``.
    @discardableResult
    public func assign<Recipients: RandomAccessCollection<String>>(
        recipients: Recipients, scope: AssignmentScope, channel: AssignmentChannel
    ) async throws -> AssignmentCounts {
        let operation = "hand out codes of offer \"\(scope.offer)\" in campaign \"\(scope.campaign)\""
        try requireWritable(operation)
        try Self.checkRecipients(recipients)
        // A recipient listed again is handed out to once: each later occurrence is left out.
        let repeated = Self.repeats(recipients)
        let repeats = repeated.reduce(0) { $0 + ($1 ? 1 : 0) }
        func distinct(_ start: Int, _ count: Int) -> [String] {
            (start..<min(start + count, recipients.count)).filter { !repeated[$0] }.map {
                recipients[recipients.index(recipients.startIndex, offsetBy: $0)]
            }
        }
        try await store.read(operation) { tx in
            let batches = try await batches(tx, .offer(campaign: scope.campaign, offer: scope.offer))
            for batch in batches where batch.batch.environment == scope.environment && !batch.isExpired(on: scope.today)
            {
                try await checkCodes(tx, of: batch) { _ in }
            }
            let plan = try await claimPlan(tx, scope: scope)
            let candidates = plan.candidates(on: scope.today).map(\.id)
            let lanes = try await tx.lanes(batchIds: candidates, lock: false).map { try CodeLane($0, path: name) }
            let left = lanes.reduce(Int64(0)) { $0 + $1.capacity - $1.taken }
            var holding = 0
            for start in stride(from: 0, to: recipients.count, by: CodeAssignment.chunkSize) {
                let chunk = distinct(start, CodeAssignment.chunkSize)
                holding += try await tx.heldAssignments(recipients: chunk, scope: scope).count
            }
            if Int64(recipients.count - repeats - holding) > left {
                // Counted with the codes the list would have taken (every one left).
                var counts = try await assignmentCounts(tx, campaign: scope.campaign)
                var allocator = LaneAllocator(lanes, order: candidates)
                while let (batchId, _) = allocator.take() {
                    if plan.isPersonal {
                        counts[batchId, default: (0, 0)].personal += 1
                    } else {
                        counts[batchId, default: (0, 0)].shared += 1
                    }
                }
                throw plan.exhausted(counts: counts)
            }
        }
        let assignedAt = LedgerTimestamp.milliseconds(Date())
        var counts = AssignmentCounts(new: 0, held: 0)
        for start in stride(from: 0, to: recipients.count, by: Self.assignmentsPerTransaction) {
            let group = distinct(start, Self.assignmentsPerTransaction)[...]
            let done = try await store.write(.offer(campaign: scope.campaign, offer: scope.offer), operation) { tx in
                try await assign(group, scope: scope, channel: channel, assignedAt: assignedAt, tx)
            }
            counts.new += done.new
            counts.held += done.held
            // A writer of another process waiting for SQLite's lock looks again about every
            // millisecond: a pause lets it in before the next group.
            if start + Self.assignmentsPerTransaction < recipients.count {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        return counts
    }

    /// `true` at each occurrence of a recipient after its first in `recipients` (by position from
    /// the first, whatever the collection's indices): found by sorting their positions (8 bytes
    /// each) rather than in a set of the recipients (about 40 bytes each).
    static func repeats<Recipients: RandomAccessCollection<String>>(_ recipients: Recipients) -> [Bool] {
        func at(_ offset: Int) -> String { recipients[recipients.index(recipients.startIndex, offsetBy: offset)] }
        var order = Array(0..<recipients.count)
        order.sort { at($0) < at($1) || (at($0) == at($1) && $0 < $1) }
        var repeated = [Bool](repeating: false, count: recipients.count)
        for index in order.indices.dropFirst() where at(order[index]) == at(order[index - 1]) {
            repeated[order[index]] = true
        }
        return repeated
    }

    /// How many recipients ``assign(recipients:scope:channel:)`` hands codes to in one write
    /// transaction: 1,000,000 recipients are a few seconds of writing in all (release build),
    /// which no other writer should wait for at once.
    static let assignmentsPerTransaction = 20_000

    /// The offer's plan in `tx`, once it is known to exist and be active.
    private func claimPlan(_ tx: any LedgerTransaction, scope: AssignmentScope) async throws -> ClaimPlan {
        guard let state = try await tx.offerState(campaign: scope.campaign, offer: scope.offer) else {
            throw LedgerError.unknownOffer(offer: scope.offer, campaign: scope.campaign)
        }
        let row = StoredRow(state, table: "offer \(ProblemText.quoted(scope.offer))", path: name)
        guard try row.boolean(0, "active") else {
            throw LedgerError.offerInactive(offer: scope.offer, campaign: scope.campaign)
        }
        return ClaimPlan(
            scope: scope, revision: try row.integer(1, "revision"),
            offerBatches: try await batches(tx, .offer(campaign: scope.campaign, offer: scope.offer)))
    }

    /// Hands out codes to `recipients` (distinct) in the write transaction `tx`.
    private func assign(
        _ recipients: ArraySlice<String>, scope: AssignmentScope, channel: AssignmentChannel,
        assignedAt: Date, _ tx: any LedgerTransaction
    ) async throws -> AssignmentCounts {
        let plan = try await claimPlan(tx, scope: scope)
        let candidates = plan.candidates(on: scope.today)
        var lanes = LaneAllocator(
            try await tx.lanes(batchIds: candidates.map(\.id), lock: true).map { try CodeLane($0, path: name) },
            order: candidates.map(\.id))
        var counts = AssignmentCounts(new: 0, held: 0)
        for start in stride(from: recipients.startIndex, to: recipients.endIndex, by: CodeAssignment.chunkSize) {
            let chunk = Array(recipients[start..<min(start + CodeAssignment.chunkSize, recipients.endIndex)])
            let held = Set(
                try await tx.heldAssignments(recipients: chunk, scope: scope).map {
                    try StoredRow($0, table: "an assignments row", path: name).text(0, "recipient")
                })
            var fresh: [NewAssignment] = []
            for recipient in chunk where !held.contains(recipient) {
                guard let (batchId, seq) = lanes.take() else {
                    // Counted with the codes this call handed out so far.
                    if !fresh.isEmpty { try await tx.insertAssignments(fresh, scope: scope) }
                    throw plan.exhausted(counts: try await assignmentCounts(tx, campaign: scope.campaign))
                }
                fresh.append(
                    NewAssignment(
                        recipient: recipient, batchId: batchId, seq: seq, shared: !plan.isPersonal,
                        channel: channel, assignedAt: assignedAt))
            }
            if !fresh.isEmpty { try await tx.insertAssignments(fresh, scope: scope) }
            counts.new += fresh.count
            counts.held += held.count
        }
        let changed = lanes.changed
        for start in stride(from: 0, to: changed.count, by: Self.chunkSize) {
            try await tx.updateLanes(Array(changed[start..<min(start + Self.chunkSize, changed.count)]))
        }
        return counts
    }

    /// Throws ``LedgerError/invalidRecipient(position:problem:)`` for the first recipient id
    /// that ``RecipientId`` refuses (its position only when there are several).
    static func checkRecipients(_ recipients: some Collection<String>) throws {
        for (index, recipient) in recipients.enumerated() {
            if let problem = RecipientId.problem(recipient) {
                throw LedgerError.invalidRecipient(position: recipients.count > 1 ? index + 1 : nil, problem: problem)
            }
        }
    }

    /// Calls `body` with each recipient, in order, and the code they hold in the scope (`nil`:
    /// none), without handing out anything; from one snapshot, a chunk of recipients at a time,
    /// each code row checked against its digest.
    ///
    /// - Throws: ``LedgerError/invalidRecipient(position:problem:)`` before reading anything.
    public func lookUpAssignments<Recipients: RandomAccessCollection<String>>(
        recipients: Recipients, scope: AssignmentScope, _ body: (String, CodeAssignment?) throws -> Void
    ) async throws {
        try Self.checkRecipients(recipients)
        try await store.read(
            "look up the codes handed out for offer \"\(scope.offer)\" in campaign \"\(scope.campaign)\""
        ) { tx in
            let batches = Dictionary(
                try await batches(tx, .offer(campaign: scope.campaign, offer: scope.offer)).map { ($0.id, $0) },
                uniquingKeysWith: { first, _ in first })
            var dates = DateCache()
            for start in stride(from: 0, to: recipients.count, by: CodeAssignment.chunkSize) {
                let first = recipients.index(recipients.startIndex, offsetBy: start)
                let chunk = recipients[
                    first..<recipients.index(first, offsetBy: min(CodeAssignment.chunkSize, recipients.count - start))]
                var known: [String: CodeAssignment] = [:]
                for values in try await tx.heldAssignments(recipients: Array(Set(chunk)), scope: scope) {
                    let row = StoredRow(values, table: "an assignments row", path: name)
                    let recipient = try row.text(0, "recipient")
                    known[recipient] = try StoredAssignment(row, batchAt: 1, digest: true, dates: &dates).assignment(
                        recipient, campaign: scope.campaign, batches: batches, path: name)
                }
                for recipient in chunk { try body(recipient, known[recipient]) }
            }
        }
    }

    /// Calls `body` with every assignment of a campaign (optionally of one offer), in the order
    /// they were recorded, from one snapshot a chunk at a time; `isNew` is `false` in each.
    public func forEachAssignment(campaign: String, offer: String?, _ body: (CodeAssignment) throws -> Void)
        async throws
    {
        try await store.read("read the codes handed out in campaign \"\(campaign)\"") { tx in
            let batches = Dictionary(
                try await batches(tx, .all).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var dates = DateCache()
            var after: Int64 = 0
            while true {
                let rows = try await tx.assignmentRows(
                    campaign: campaign, offer: offer, afterId: after, limit: Self.chunkSize)
                for values in rows {
                    let row = StoredRow(values, table: "an assignments row", path: name)
                    after = try row.id(0, "id")
                    try body(
                        try StoredAssignment(row, batchAt: 2, digest: true, dates: &dates).assignment(
                            try row.text(1, "recipient"), campaign: campaign, batches: batches, path: name))
                }
                if rows.count < Self.chunkSize { return }
            }
        }
    }

    /// What the ledger holds for a campaign and how much of it was handed out; limits are counted
    /// in the quarter of `today`, and batches that expired before `today` are marked. Every code
    /// of the campaign is read and checked against its batch's digest, from one snapshot.
    ///
    /// - Throws: ``LedgerError/unknownCampaign(campaign:)`` when the campaign is not recorded.
    public func status(campaign: String, today: CalendarDate) async throws -> CampaignStatus {
        try await store.read("read the status of campaign \"\(campaign)\"") { tx in
            guard let app = try await recordedApp(tx, campaign: campaign) else {
                throw LedgerError.unknownCampaign(campaign: campaign)
            }
            let summary = try await summary(
                tx, appAppleId: app.app.appAppleId, quarter: today.quarter, excludingCampaign: "")
            let offers = try await tx.offerRows(campaign: campaign).map { values -> (name: String, active: Bool) in
                let row = StoredRow(values, table: "an offers row", path: name)
                return (try row.text(0, "name"), try row.boolean(1, "active"))
            }
            let counts = try await assignmentCounts(tx, campaign: campaign)
            let batches = try await batches(tx, .all)
            for batch in batches where batch.batch.campaign == campaign {
                try await checkCodes(tx, of: batch) { _ in }
            }
            return CampaignStatus(
                campaign: campaign, app: app.app, offers: offers, batches: batches, assignments: counts,
                summary: summary, today: today)
        }
    }

    /// `campaign`'s app as the ledger recorded it: its bundle ID (what an API key's bundle-ID limit
    /// is checked against) and App Apple ID (for redemption links), remembered after the first read.
    ///
    /// - Throws: ``LedgerError/unknownCampaign(campaign:)`` when the campaign is not recorded.
    public func app(campaign: String) async throws -> CampaignApp {
        if let known = apps.withLock({ $0[campaign] }) { return known }
        let app = try await store.read("read the app of campaign \"\(campaign)\"") { tx in
            try await recordedApp(tx, campaign: campaign)
        }
        guard let app else { throw LedgerError.unknownCampaign(campaign: campaign) }
        apps.withLock { $0[campaign] = app.app }
        return app.app
    }
}

/// Takes codes from a set of lanes in the order a claim would (``ClaimPlan``): the first batch
/// (of `order`) that has a code left; of a personal batch the lane whose next code comes first,
/// of a shared batch the first code with room.
struct LaneAllocator {
    private var lanes: [[CodeLane]]
    private var current = 0
    /// Of a shared batch: the first lane that may have room (shared lanes only fill up).
    private var firstOpen = 0
    private var touched = Set<[Int64]>()

    init(_ all: [CodeLane], order: [Int64]) {
        let byBatch = Dictionary(grouping: all, by: \.batchId)
        lanes = order.map { (byBatch[$0] ?? []).sorted { $0.lane < $1.lane } }
    }

    /// The next code (`batch_id`, `seq`), or `nil` when every lane is full.
    mutating func take() -> (Int64, Int64)? {
        while current < lanes.count {
            if let index = next(in: lanes[current]) {
                let lane = lanes[current][index]
                lanes[current][index].taken += 1
                touched.insert([lane.batchId, lane.lane])
                return (lane.batchId, lane.nextSeq)
            }
            current += 1
            firstOpen = 0
        }
        return nil
    }

    /// The lane of `batch` to take from, or `nil` when all are full.
    private mutating func next(in batch: [CodeLane]) -> Int? {
        guard let first = batch.first else { return nil }
        if first.shared {
            while firstOpen < batch.count, !batch[firstOpen].hasRoom { firstOpen += 1 }
            return firstOpen < batch.count ? firstOpen : nil
        }
        var best: Int?
        for index in batch.indices where batch[index].hasRoom {
            if let chosen = best, batch[chosen].nextSeq <= batch[index].nextSeq { continue }
            best = index
        }
        return best
    }

    /// The lanes that handed out codes, as they are now.
    var changed: [CodeLane] {
        lanes.flatMap { $0 }.filter { touched.contains([$0.batchId, $0.lane]) }
    }
}
