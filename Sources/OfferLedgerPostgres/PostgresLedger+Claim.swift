import Foundation
import OfferCodes
import PostgresNIO

extension PostgresLedger {
    /// Hands out one code to one recipient; see `CodeLedger.claim(recipient:scope:)`.
    ///
    /// Two round trips rather than a transaction's eight or more: the batches are read (and
    /// checked) first, then the `offerkit_claim` function of the ledger's schema takes the offer's
    /// assignment lock, returns the recipient's code or assigns the next free personal code of
    /// the batches chosen here (`AssignableBatch.personalCandidates(_:scope:)`, the general
    /// assignment's own choice), and commits. The lock is held only while the server runs the
    /// function, which is what lets many hosts claim from one offer at once. Anything else
    /// (shared codes, nothing left, an inactive or unknown offer) goes through
    /// ``assign(recipients:scope:channel:_:)``, which gives the answer or the reason.
    public func claim(recipient: String, scope: AssignmentScope) throws -> CodeAssignment {
        if let problem = RecipientId.problem(recipient) {
            throw LedgerError.invalidRecipient(position: nil, problem: problem)
        }
        let label = label
        let schema = location.schema
        let fast: CodeAssignment? = try autocommit("claim a code of offer \"\(scope.offer)\"") { session in
            let batches = try PostgresStoredBatch.fetchAll(session, label: label, schema: schema).map {
                AssignableBatch(id: $0.id, batch: $0.batch, storedCodes: $0.storedCodes)
            }
            guard let candidates = AssignableBatch.personalCandidates(batches, scope: scope), !candidates.isEmpty
            else { return nil }
            let lock = Self.assignmentLockName(schema: schema, campaign: scope.campaign, offer: scope.offer)
            let timeout = "\(Self.lockTimeoutSeconds)s"
            let channel = AssignmentChannel.claim.rawValue
            let query = PostgresQuery(
                unsafeSQL: "SELECT batch_id, seq, code, channel, assigned_at, is_new FROM \(schema).offerkit_claim("
                    + "$1, $2, $3, $4, $5, $6, $7, $8, $9)",
                binds: try Self.bindings(
                    lock, timeout, scope.campaign, scope.offer, scope.environment.rawValue, recipient, channel,
                    LedgerTimestamp.milliseconds(Date()),
                    candidates.map(\.id)))
            guard let row = try session.query(query).first else { return nil }
            let (batchId, seq, code, channelText, assignedAt, isNew) = try row.decode(
                (Int64, Int64, String, String, Date, Bool).self)
            guard let recorded = AssignmentChannel(rawValue: channelText) else {
                throw LedgerError.corrupt(path: label, reason: "an assignment row names an unknown channel")
            }
            var assignment = try CodeAssignment(
                recipient, campaign: scope.campaign,
                stored: StoredAssignment(
                    batchId: batchId, seq: seq, code: code, channel: recorded,
                    assignedAt: LedgerTimestamp.milliseconds(assignedAt)),
                batches: Dictionary(batches.map { ($0.id, $0.batch) }, uniquingKeysWith: { first, _ in first }),
                path: label)
            assignment.isNew = isNew
            return assignment
        }
        if let fast { return fast }
        var result: CodeAssignment?
        try assign(recipients: [recipient], scope: scope, channel: .claim) { result = $0 }
        guard let result else {
            throw LedgerError.databaseFailure(operation: "claim a code", reason: "no assignment was returned")
        }
        return result
    }

    private static func bindings(
        _ lock: String, _ timeout: String, _ campaign: String, _ offer: String, _ environment: String,
        _ recipient: String, _ channel: String, _ now: Date, _ batches: [Int64]
    ) throws -> PostgresBindings {
        var bindings = PostgresBindings()
        for text in [lock, timeout, campaign, offer, environment, recipient, channel] { bindings.append(text) }
        bindings.append(now)
        bindings.append(batches)
        return bindings
    }
}
