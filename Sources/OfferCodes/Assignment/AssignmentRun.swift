import Foundation

/// Hands out codes of one offer to recipients, inside one transaction of a backend
/// (``AssignmentStore``): the one place that decides which code a recipient gets.
///
/// - A recipient who already holds a code in the scope gets the same code again (`isNew` is
///   `false`): a retried export or claim is safe.
/// - An offer with personal batches (redemption limit 1) in the environment hands out only
///   personal codes: batch by batch in the order recorded, each batch's codes in order, skipping
///   batches that expired or whose codes are not imported yet. Each code goes to one recipient.
/// - An offer whose batches in the environment are all shared (custom codes with a redemption
///   limit above 1) hands out the first shared code that has been handed out fewer times than
///   its redemption limit: the campaign's code, never consumed by one recipient.
/// - When nothing is left, nothing is recorded: ``LedgerError/noCodeLeft(campaign:offer:environment:assigned:stored:)``
///   or ``LedgerError/nothingToAssign(campaign:offer:environment:reason:)``.
package struct AssignmentRun<Store: AssignmentStore> {
    private let store: Store
    private let scope: AssignmentScope
    private let channel: AssignmentChannel
    private let now: Date
    private let batches: [Int64: AssignableBatch]
    /// Personal batches that may still hand out codes, in order; the first is the current one.
    private var personal: ArraySlice<AssignableBatch>
    private let hasPersonal: Bool
    /// The last `seq` this run took from the current personal batch (`nil`: none yet, ask the
    /// backend for the batch's free codes).
    private var lastSeq: Int64?
    /// Shared codes with room left: (batch, seq, code, times handed out), in order.
    private var shared: [(batch: AssignableBatch, seq: Int64, code: String, handedOut: Int)]?

    /// Starts a run over `batches` (every batch of the ledger may be passed; the scope selects).
    ///
    /// - Throws: ``LedgerError/unknownOffer(offer:campaign:)`` and
    ///   ``LedgerError/offerInactive(offer:campaign:)``.
    package init(
        store: Store, scope: AssignmentScope, channel: AssignmentChannel, batches: [AssignableBatch], now: Date = Date()
    ) throws {
        guard let active = try store.offerActive(campaign: scope.campaign, offer: scope.offer) else {
            throw LedgerError.unknownOffer(offer: scope.offer, campaign: scope.campaign)
        }
        guard active else { throw LedgerError.offerInactive(offer: scope.offer, campaign: scope.campaign) }
        let ours = batches.filter {
            $0.batch.campaign == scope.campaign && $0.batch.offer == scope.offer
                && $0.batch.environment == scope.environment
        }
        self.store = store
        self.scope = scope
        self.channel = channel
        self.now = LedgerTimestamp.milliseconds(now)
        self.batches = Dictionary(ours.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let candidates = AssignableBatch.personalCandidates(ours, scope: scope)
        hasPersonal = candidates != nil
        personal = ArraySlice(candidates ?? [])
        lastSeq = nil
    }

    /// Gives each recipient a code, in order, and calls `body` with each assignment once it is
    /// recorded (a recipient listed twice gets the same code twice). Every recipient is checked
    /// first (``RecipientId``).
    ///
    /// - Throws: ``LedgerError/invalidRecipient(position:problem:)``, the errors of the type's
    ///   documentation, the backend's, and whatever `body` throws. The caller's transaction
    ///   must then roll back: some assignments may have been inserted.
    package mutating func assign(_ recipients: [String], _ body: (CodeAssignment) throws -> Void) throws {
        for (index, recipient) in recipients.enumerated() {
            if let problem = RecipientId.problem(recipient) {
                throw LedgerError.invalidRecipient(position: recipients.count > 1 ? index + 1 : nil, problem: problem)
            }
        }
        var start = 0
        while start < recipients.count {
            let chunk = recipients[start..<min(start + CodeAssignment.chunkSize, recipients.count)]
            start += chunk.count
            var known = try store.existing(Array(Set(chunk)), scope: scope)
            var fresh: [NewAssignment] = []
            var freshRecipients = Set<String>()
            var results: [CodeAssignment] = []
            results.reserveCapacity(chunk.count)
            let needed = Set(chunk.filter { known[$0] == nil }).count
            var personalCodes = try takePersonal(needed)[...]
            for recipient in chunk {
                if let stored = known[recipient] {
                    results.append(try assignment(recipient, stored, isNew: freshRecipients.contains(recipient)))
                    continue
                }
                let next: StoredAssignment? =
                    if hasPersonal {
                        personalCodes.popFirst().map {
                            StoredAssignment(
                                batchId: $0.batch, seq: $0.seq, code: $0.code, channel: channel, assignedAt: now)
                        }
                    } else {
                        try takeShared()
                    }
                guard let stored = next else {
                    // Counted with this chunk's assignments (the caller rolls all of them back).
                    if !fresh.isEmpty { try store.insert(fresh, scope: scope) }
                    throw try exhausted()
                }
                let isShared = !hasPersonal
                known[recipient] = stored
                freshRecipients.insert(recipient)
                fresh.append(
                    NewAssignment(
                        recipient: recipient, batchId: stored.batchId, seq: stored.seq, shared: isShared,
                        channel: channel, assignedAt: now))
                results.append(try assignment(recipient, stored, isNew: true))
            }
            if !fresh.isEmpty { try store.insert(fresh, scope: scope) }
            for result in results { try body(result) }
        }
    }

    private func assignment(_ recipient: String, _ stored: StoredAssignment, isNew: Bool) throws -> CodeAssignment {
        guard let batch = batches[stored.batchId]?.batch else {
            throw LedgerError.databaseFailure(
                operation: "hand out a code of offer \"\(scope.offer)\"",
                reason:
                    "an assignment names a batch that is not one of the offer's \(scope.environment.rawValue) batches")
        }
        return CodeAssignment(
            recipient: recipient, campaign: scope.campaign,
            code: IssuedCode(
                code: stored.code, offer: batch.offer, kind: batch.kind, batchIndex: batch.index,
                redemptionLimit: batch.redemptionLimit, expirationDate: batch.expirationDate,
                environment: batch.environment),
            channel: stored.channel, assignedAt: stored.assignedAt, isNew: isNew)
    }

    /// The next `count` free personal codes, fewer when the batches run out.
    private mutating func takePersonal(_ count: Int) throws -> [(batch: Int64, seq: Int64, code: String)] {
        guard hasPersonal else { return [] }
        var taken: [(batch: Int64, seq: Int64, code: String)] = []
        while taken.count < count, let current = personal.first {
            let wanted = count - taken.count
            let codes =
                if let last = lastSeq {
                    try store.codes(batchId: current.id, after: last, limit: wanted)
                } else {
                    try store.freeCodes(batchId: current.id, limit: wanted)
                }
            taken += codes.map { (current.id, $0.seq, $0.code) }
            if codes.count < wanted {
                // The batch has no free code after the last one taken: go on with the next batch.
                personal.removeFirst()
                lastSeq = nil
            } else if let last = codes.last {
                lastSeq = last.seq
            }
        }
        return taken
    }

    /// The first shared code with room left, or `nil`.
    private mutating func takeShared() throws -> StoredAssignment? {
        if shared == nil {
            var codes: [(batch: AssignableBatch, seq: Int64, code: String, handedOut: Int)] = []
            let candidates = batches.values.sorted { $0.id < $1.id }.filter {
                $0.storedCodes > 0 && !$0.isExpired(on: scope.today)
            }
            for batch in candidates {
                let handedOut = try store.sharedRecipients(batchId: batch.id)
                for code in try store.codes(batchId: batch.id, after: nil, limit: batch.storedCodes) {
                    let count = handedOut[code.seq] ?? 0
                    if count < batch.batch.redemptionLimit { codes.append((batch, code.seq, code.code, count)) }
                }
            }
            shared = codes
        }
        guard var first = shared?.first else { return nil }
        first.handedOut += 1
        if first.handedOut >= first.batch.batch.redemptionLimit {
            shared?.removeFirst()
        } else {
            shared?[0] = first
        }
        return StoredAssignment(
            batchId: first.batch.id, seq: first.seq, code: first.code, channel: channel, assignedAt: now)
    }

    /// Why nothing is left to hand out.
    private func exhausted() throws -> LedgerError {
        let ours = batches.values.sorted { $0.id < $1.id }
        let environment = scope.environment.rawValue.lowercased()
        if ours.isEmpty {
            return .nothingToAssign(
                campaign: scope.campaign, offer: scope.offer, environment: scope.environment,
                reason: "the ledger has no \(environment) batch of it")
        }
        let relevant = ours.filter { $0.isPersonal == hasPersonal }
        let live = relevant.filter { !$0.isExpired(on: scope.today) }
        if live.isEmpty {
            return .nothingToAssign(
                campaign: scope.campaign, offer: scope.offer, environment: scope.environment,
                reason: "every \(environment) batch of it expired before \(scope.today)")
        }
        if live.allSatisfy({ $0.storedCodes == 0 }) {
            return .nothingToAssign(
                campaign: scope.campaign, offer: scope.offer, environment: scope.environment,
                reason: "its one-time-use codes are not imported yet (run `offerkit codes import` with Apple's CSV)")
        }
        var assigned = 0
        var stored = 0
        for batch in live {
            if hasPersonal {
                assigned += try store.personalAssigned(batchId: batch.id)
                stored += batch.storedCodes
            } else {
                assigned += try store.sharedRecipients(batchId: batch.id).values.reduce(0, +)
                let (capacity, overflow) = batch.storedCodes.multipliedReportingOverflow(
                    by: batch.batch.redemptionLimit)
                let (sum, sumOverflow) = stored.addingReportingOverflow(capacity)
                stored = overflow || sumOverflow ? .max : sum
            }
        }
        return .noCodeLeft(
            campaign: scope.campaign, offer: scope.offer, environment: scope.environment, assigned: assigned,
            stored: stored)
    }
}
