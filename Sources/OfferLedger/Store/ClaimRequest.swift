import Foundation
import OfferCodes

/// One claim as the ledger hands it to its store (``LedgerStore/claim(_:)``): the store runs it
/// as one short transaction that
///
/// 1. answers the code the recipient already holds in the scope, if any (``ClaimOutcome/held(_:)``);
/// 2. otherwise checks the offer's row: recorded, of ``revision`` (else ``ClaimOutcome/stale``:
///    the ledger read batches that changed since), and active (else ``ClaimOutcome/inactive``);
/// 3. takes the next code of the first of ``batchIds`` that has one left, from its lanes
///    (``CodeLane``), checks the code's row against its digest (``CodeDigest``: a row that does
///    not match fails the claim as damage), records the assignment and moves the lane on
///    (``ClaimOutcome/assigned(_:)``), or finds none (``ClaimOutcome/exhausted``).
///
/// The unique indexes of the assignments (one code per recipient and scope, one recipient per
/// personal code) refuse whatever a race would let through: a claim of the same recipient that
/// committed first makes this one ``ClaimOutcome/raced``, and the ledger asks again.
package struct ClaimRequest: Sendable {
    package var scope: AssignmentScope
    package var recipient: String
    package var channel: AssignmentChannel
    /// When the code is handed out (whole milliseconds).
    package var assignedAt: Date
    /// The offer's revision when the ledger read its batches.
    package var revision: Int64
    /// The batches to take a code from, in the order they are used: personal batches that did not
    /// expire and hold codes, or (for an offer without any) shared ones.
    package var batchIds: [Int64]
    /// Whether ``batchIds`` are shared batches.
    package var shared: Bool
}

/// What a store answered to a ``ClaimRequest``. A code comes as `batch_id, seq, code, channel,
/// assigned_at` (the time as text), its row checked against its digest by the store.
package enum ClaimOutcome: Sendable {
    /// The recipient already held this code (nothing changed).
    case held([LedgerValue])
    /// The code was handed out now.
    case assigned([LedgerValue])
    /// The offer's revision is not the one the request carries (or the offer has no row).
    case stale
    /// The offer is marked inactive.
    case inactive
    /// None of the batches has a code left.
    case exhausted
    /// Another claim of the same recipient committed first: ask again.
    case raced
}
