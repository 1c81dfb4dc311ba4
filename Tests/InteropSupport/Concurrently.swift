import Foundation

/// Runs a body on several threads that start at the same moment, for races between ledgers (shared by
/// the test targets).
public enum Concurrently {
    /// Calls `body(0)` … `body(count - 1)`, each on a thread of its own (``OwnedThread``), released
    /// together once all threads exist; returns the results in that order. The caller waits without
    /// holding a thread.
    public static func run<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) async -> [T] {
        let race = Race<T>(count: count)
        return await withCheckedContinuation { continuation in
            race.onFinish = { continuation.resume(returning: $0) }
            for index in 0..<count {
                OwnedThread.start {
                    race.arriveAndWaitForAll()
                    race.finish(index, body(index))
                }
            }
        }
    }

    private final class Race<T: Sendable>: @unchecked Sendable {
        private let condition = NSCondition()
        private let count: Int
        private var arrived = 0
        private var slots: [T?]
        private var finished = 0
        var onFinish: (([T]) -> Void)?

        init(count: Int) {
            self.count = count
            slots = Array(repeating: nil, count: count)
        }

        /// Blocks the calling (owned) thread until every thread has arrived.
        func arriveAndWaitForAll() {
            condition.withLock {
                arrived += 1
                if arrived == count { condition.broadcast() }
                while arrived < count { condition.wait() }
            }
        }

        func finish(_ index: Int, _ value: T) {
            let done: ([T], ([T]) -> Void)? = condition.withLock {
                slots[index] = value
                finished += 1
                guard finished == count, let onFinish else { return nil }
                return (slots.compactMap { $0 }, onFinish)
            }
            if let (values, resume) = done { resume(values) }
        }
    }
}
