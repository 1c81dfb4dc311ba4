import Foundation

/// Runs a body on several threads that start at the same moment, for races between ledgers (shared by
/// the test targets).
public enum Concurrently {
    /// Calls `body(0)` … `body(count - 1)`, each on a thread of its own, released together once
    /// all threads exist; returns the results in that order.
    public static func run<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        let results = Results<T>(count: count)
        let ready = DispatchGroup()
        let done = DispatchGroup()
        let gate = DispatchSemaphore(value: 0)
        for index in 0..<count {
            ready.enter()
            done.enter()
            Thread {
                ready.leave()
                gate.wait()
                results.set(index, body(index))
                done.leave()
            }.start()
        }
        ready.wait()
        for _ in 0..<count { gate.signal() }
        done.wait()
        return results.values
    }

    private final class Results<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [T?]

        init(count: Int) { slots = Array(repeating: nil, count: count) }

        func set(_ index: Int, _ value: T) { lock.withLock { slots[index] = value } }

        var values: [T] { lock.withLock { slots.compactMap { $0 } } }
    }
}
