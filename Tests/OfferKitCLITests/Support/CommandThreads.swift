import Foundation

/// Threads of the tests' own on which commands run in-process (``CLI/run(_:environment:stdin:cwd:peakMemory:executable:process:)``),
/// so that whatever a command blocks on (a file, a FIFO's writer, SQLite) holds one of these, never a
/// thread of Swift's cooperative pool: a task executor the commands' tasks prefer.
final class CommandThreads: TaskExecutor, @unchecked Sendable {
    /// Four threads: at most 8 tests run at once, and a command spends most of its time on the CPU.
    static let shared = CommandThreads(count: 4)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init(count: Int) {
        for index in 0..<count {
            let thread = Thread { [self] in work() }
            thread.name = "offerkit command \(index)"
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

    /// Runs `body` with these threads preferred for it and every child task.
    func run<T: Sendable>(_ body: @Sendable () async -> T) async -> T {
        await withTaskExecutorPreference(self) { await body() }
    }

    /// Runs jobs in the order they came, for the life of the process.
    private func work() {
        while true {
            let job = condition.withLock {
                while jobs.isEmpty { condition.wait() }
                return jobs.removeFirst()
            }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
