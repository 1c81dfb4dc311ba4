import OfferCodes

/// A lane of a batch's codes: where the next claim of the batch takes its code, so that a claim
/// reads one small row instead of the batch's assignments.
///
/// - A personal batch (redemption limit 1) has ``personalLanes`` lanes: lane `i` holds the codes
///   whose position is `i`, `i + personalLanes`, … (``step``), and hands them out in that order
///   (``taken`` of them so far). Its next code is at `lane + taken × step`. A claim takes the
///   lane whose next code comes first, so that codes go out in the order recorded; on PostgreSQL
///   claims running at the same moment each lock another lane (`FOR UPDATE SKIP LOCKED`) rather
///   than wait for one another, so that codes then go out side by side, never twice and never
///   skipped.
/// - A shared batch has one lane per code (``lane`` is the code's position, ``step`` 1):
///   ``taken`` counts the recipients who hold the code, up to its redemption limit
///   (``capacity``).
///
/// A lane changes in the transaction that records the assignment, so the two always agree; the
/// unique indexes of the assignments refuse whatever would not.
package struct CodeLane: Sendable, Equatable {
    package var batchId: Int64
    package var lane: Int64
    package var shared: Bool
    package var taken: Int64
    package var capacity: Int64
    package var step: Int64

    /// The lanes of a personal batch.
    package static let personalLanes: Int64 = 32

    /// The columns of a `code_lanes` row, as the stores read and write them.
    package static let columns = "batch_id, lane, shared, taken, capacity, step"

    package init(batchId: Int64, lane: Int64, shared: Bool, taken: Int64, capacity: Int64, step: Int64) {
        self.batchId = batchId
        self.lane = lane
        self.shared = shared
        self.taken = taken
        self.capacity = capacity
        self.step = step
    }

    /// Decodes and checks a row of ``columns``.
    package init(_ values: [LedgerValue], path: String) throws {
        let row = StoredRow(values, table: "a code_lanes row", path: path)
        batchId = try row.id(0, "batch_id")
        lane = try row.integer(1, "lane")
        shared = try row.boolean(2, "shared")
        taken = try row.integer(3, "taken")
        capacity = try row.integer(4, "capacity")
        step = try row.integer(5, "step")
        guard lane >= 0, step >= 1, taken >= 0, taken <= capacity else {
            throw row.corrupt("taken", "a count from 0 to the lane's capacity")
        }
    }

    /// Whether the lane has a code left.
    package var hasRoom: Bool { taken < capacity }

    /// The position (`seq`) of the code the lane hands out next.
    package var nextSeq: Int64 { shared ? lane : lane + taken * step }

    /// The lanes of a batch, given how many codes it holds and how many of its codes are handed
    /// out in each lane (``LedgerTransaction/laneCounts(batchId:personalLanes:)``; none for a new
    /// batch), `chunk` lanes at a time (a shared batch has a lane per code).
    package static func lanes(
        of batch: StoredBatch, taken: [Int64: Int64] = [:], chunk: Int = 10_000,
        _ body: ([CodeLane]) async throws -> Void
    ) async throws {
        let stored = Int64(batch.storedCodes)
        let count = batch.isPersonal ? min(personalLanes, stored) : stored
        var start: Int64 = 0
        while start < count {
            let end = min(count, start + Int64(chunk))
            try await body(
                (start..<end).map { lane in
                    batch.isPersonal
                        ? CodeLane(
                            batchId: batch.id, lane: lane, shared: false, taken: taken[lane] ?? 0,
                            capacity: (stored - 1 - lane) / personalLanes + 1, step: personalLanes)
                        : CodeLane(
                            batchId: batch.id, lane: lane, shared: true, taken: taken[lane] ?? 0,
                            capacity: Int64(batch.batch.redemptionLimit), step: 1)
                })
            start = end
        }
    }
}
