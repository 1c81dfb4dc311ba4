import Foundation

/// What ``AssignmentRun`` needs from a ledger backend, inside one transaction that holds the
/// lock which serializes assignments of the offer (SQLite's write lock, PostgreSQL's advisory
/// lock). Each backend answers with its own queries; the decisions are ``AssignmentRun``'s, so
/// that SQLite and PostgreSQL cannot hand out codes differently.
package protocol AssignmentStore {
    /// The offer's `active` switch, or `nil` when the campaign has no such offer recorded.
    func offerActive(campaign: String, offer: String) throws -> Bool?

    /// The recorded assignments of these recipients (distinct) in the scope, by recipient.
    func existing(_ recipients: [String], scope: AssignmentScope) throws -> [String: StoredAssignment]

    /// Up to `limit` codes of the batch after the last one assigned as a personal code (from the
    /// first when none is), in `seq` order: personal codes are handed out in `seq` order, so
    /// these are the free ones.
    func freeCodes(batchId: Int64, limit: Int) throws -> [(seq: Int64, code: String)]

    /// How many of the batch's codes are assigned as personal codes.
    func personalAssigned(batchId: Int64) throws -> Int

    /// For each code (`seq`) of a shared batch, to how many recipients it was handed out.
    func sharedRecipients(batchId: Int64) throws -> [Int64: Int]

    /// Up to `limit` codes of the batch after `seq` (from the first when `nil`), in `seq` order.
    func codes(batchId: Int64, after seq: Int64?, limit: Int) throws -> [(seq: Int64, code: String)]

    /// Records new assignments.
    func insert(_ assignments: [NewAssignment], scope: AssignmentScope) throws
}

/// A batch as assignment reads it: its row id, its values, and how many codes it holds.
package struct AssignableBatch: Sendable {
    package let id: Int64
    package let batch: LedgerBatch
    package let storedCodes: Int

    package init(id: Int64, batch: LedgerBatch, storedCodes: Int) {
        self.id = id
        self.batch = batch
        self.storedCodes = storedCodes
    }

    /// A personal batch: each code is redeemable once, so it goes to one recipient.
    var isPersonal: Bool { batch.redemptionLimit == 1 }

    /// The batches from which a personal code of the scope's offer may be handed out, in the
    /// order they are used (personal, not expired, with codes), or `nil` when the offer has no
    /// personal batch in the environment (its codes are shared, or it has none).
    package static func personalCandidates(_ batches: [AssignableBatch], scope: AssignmentScope) -> [AssignableBatch]? {
        let ours = batches.filter {
            $0.batch.campaign == scope.campaign && $0.batch.offer == scope.offer
                && $0.batch.environment == scope.environment
        }
        guard ours.contains(where: \.isPersonal) else { return nil }
        return ours.filter { $0.isPersonal && $0.storedCodes > 0 && !$0.isExpired(on: scope.today) }
    }

    func isExpired(on day: CalendarDate) -> Bool {
        guard let expiration = batch.expirationDate else { return false }
        return expiration < day
    }
}

/// An assignment as a backend reads it back.
package struct StoredAssignment: Sendable {
    package let batchId: Int64
    package let seq: Int64
    package let code: String
    package let channel: AssignmentChannel
    package let assignedAt: Date

    package init(batchId: Int64, seq: Int64, code: String, channel: AssignmentChannel, assignedAt: Date) {
        self.batchId = batchId
        self.seq = seq
        self.code = code
        self.channel = channel
        self.assignedAt = assignedAt
    }
}

/// An assignment for a backend to insert.
package struct NewAssignment: Sendable {
    package let recipient: String
    package let batchId: Int64
    package let seq: Int64
    package let shared: Bool
    package let channel: AssignmentChannel
    package let assignedAt: Date
}
