import Foundation

/// A task executor with one thread of its own that a test can hold: while held, the jobs enqueued on
/// it wait, as a service's tasks wait for a thread on a busy machine (NIO keeps reading meanwhile).
final class GatedExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var held = false

    init() {
        let thread = Thread { [self] in work() }
        thread.start()
    }

    /// Jobs wait until ``release()``.
    func hold() { condition.withLock { held = true } }

    func release() {
        condition.withLock {
            held = false
            condition.broadcast()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.broadcast()
        }
    }

    /// Runs jobs in the order they came, for the life of the process.
    private func work() {
        while true {
            let job = condition.withLock {
                while held || jobs.isEmpty { condition.wait() }
                return jobs.removeFirst()
            }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
