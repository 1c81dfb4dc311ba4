import OfferCodes

/// What the ledger knows of one offer's batches in one environment when it hands out their
/// codes: the one place that decides which batches a code comes from.
///
/// - An offer with personal batches (redemption limit 1) in the environment hands out only
///   personal codes: batch by batch in the order recorded, each batch's codes in order, skipping
///   batches that expired or whose codes are not imported yet. Each code goes to one recipient.
/// - An offer whose batches in the environment are all shared (custom codes with a redemption
///   limit above 1) hands out the first shared code that has been handed out fewer times than
///   its redemption limit: the campaign's code, never consumed by one recipient.
/// - When nothing is left, nothing is recorded: ``LedgerError/noCodeLeft(campaign:offer:environment:assigned:stored:)``
///   or ``LedgerError/nothingToAssign(campaign:offer:environment:reason:)`` (``exhausted(counts:)``).
///
/// Claims keep a plan per offer and read it again only when the offer's revision changes (a
/// batch recorded or imported, the offer switched), which the claim's own statement checks.
struct ClaimPlan: Sendable {
    struct Key: Hashable, Sendable {
        let campaign: String
        let offer: String
        let environment: CodeEnvironment

        init(_ scope: AssignmentScope) {
            campaign = scope.campaign
            offer = scope.offer
            environment = scope.environment
        }
    }

    /// The scope of the claim at hand (its day decides what expired).
    var scope: AssignmentScope
    /// The offer's revision when its batches were read.
    let revision: Int64
    /// Every batch of the offer (any environment), by id: what assignments read back name.
    let offerBatches: [Int64: StoredBatch]
    /// The offer's batches in the scope's environment, in the order recorded.
    let batches: [StoredBatch]

    init(scope: AssignmentScope, revision: Int64, offerBatches: [StoredBatch]) {
        self.scope = scope
        self.revision = revision
        self.offerBatches = Dictionary(offerBatches.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        batches = offerBatches.filter { $0.batch.environment == scope.environment }
    }

    /// Whether the offer hands out personal codes in the environment (it has a personal batch).
    var isPersonal: Bool { batches.contains(where: \.isPersonal) }

    /// The batches a code may come from on `today`, in the order they are used: personal
    /// batches, or shared ones for an offer without any, that hold codes and did not expire.
    func candidates(on today: CalendarDate) -> [StoredBatch] {
        let personal = isPersonal
        return batches.filter { $0.isPersonal == personal && $0.storedCodes > 0 && !$0.isExpired(on: today) }
    }

    /// Why nothing is left to hand out on `scope.today`, given the offer's assignments counted
    /// per batch (``LedgerTransaction/assignmentCounts(campaign:)``).
    func exhausted(counts: [Int64: (personal: Int, shared: Int)]) -> LedgerError {
        let environment = scope.environment.rawValue.lowercased()
        if batches.isEmpty {
            return .nothingToAssign(
                campaign: scope.campaign, offer: scope.offer, environment: scope.environment,
                reason: "the ledger has no \(environment) batch of it")
        }
        let personal = isPersonal
        let live = batches.filter { $0.isPersonal == personal && !$0.isExpired(on: scope.today) }
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
            let count = counts[batch.id] ?? (0, 0)
            if personal {
                assigned += count.personal
                stored += batch.storedCodes
            } else {
                assigned += count.shared
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
