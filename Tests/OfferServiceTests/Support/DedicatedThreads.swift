import Foundation

/// A task executor with threads of its own, for tests that run a live service in this process.
///
/// All test suites share one process, and Swift's cooperative pool has one thread per core. Tests
/// that wait for child processes (`offerkit`, Python, openssl) block one of those threads while
/// they wait; with enough of them queued, a live service's handlers and its client's reads once
/// waited more than a minute for a thread, and time limits meant for a stalled client fired on a
/// healthy one. Run under ``withTaskExecutorPreference(_:isolation:operation:)`` with this
/// executor, such a test's tasks (and the child tasks Hummingbird makes per connection) run here.
final class DedicatedThreads: TaskExecutor, @unchecked Sendable {
    /// Four threads, shared by every test that asks.
    static let shared = DedicatedThreads(count: 4)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var next = 0

    private init(count: Int) {
        for index in 0..<count {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "tests.dedicated.\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    /// Runs jobs in the order they came, for the life of the process.
    private func work() {
        while true {
            let job = condition.withLock {
                while next == jobs.count { condition.wait() }
                let job = jobs[next]
                next += 1
                if next > 1024, next * 2 > jobs.count {
                    jobs.removeFirst(next)
                    next = 0
                }
                return job
            }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
