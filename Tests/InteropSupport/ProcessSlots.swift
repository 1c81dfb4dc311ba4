import Foundation

/// How many short-lived child processes (an `offerkit` command, a Python verifier, `openssl`) the
/// tests of one process run at once.
///
/// Awaiting a child no longer holds a thread of Swift's pool, so nothing else bounds how many start
/// together: with ~1,250 tests, hundreds of processes started at once on 2 cores, and the tests
/// that measure against a clock (token lifetimes, Apple's 700 ms rule, a deadline raced by a child)
/// failed for the load alone. A slot is taken by a run that ends by itself and given back when it
/// has; long-lived processes (servers, stand-ins, the kill -9 proofs' children) take none, so a
/// run waiting for one of them can always get its slot. Waiting for a slot suspends the task, never
/// a thread. `OFFERKIT_TEST_PROCESSES` sets the number (default: twice the active cores, at least 4).
public actor ProcessSlots {
    /// The slots every test of this process shares.
    public static let shared = ProcessSlots(
        limit: ProcessInfo.processInfo.environment["OFFERKIT_TEST_PROCESSES"].flatMap { Int($0) }.map { max(1, $0) }
            ?? max(4, 2 * ProcessInfo.processInfo.activeProcessorCount))

    private let limit: Int
    private var inUse = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Slots for at most `limit` runs at once.
    public init(limit: Int) {
        self.limit = limit
    }

    /// Runs `body` once a slot is free, and frees it when `body` returns or throws. `body` runs
    /// outside the actor: the actor only counts.
    public nonisolated func withSlot<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await take()
        do {
            let value = try await body()
            await give()
            return value
        } catch {
            await give()
            throw error
        }
    }

    private func take() async {
        if inUse < limit {
            inUse += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func give() {
        if waiting.isEmpty {
            inUse -= 1
        } else {
            waiting.removeFirst().resume()  // the slot passes on: inUse stays the same
        }
    }
}
