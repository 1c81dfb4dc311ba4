import Foundation

/// A thread of the tests' own for one in-process run of `offerkit` (``CLI``): a task executor the
/// run's task and its child tasks prefer, so that whatever the command does synchronously (ArgumentParser's
/// debug checks, signing, reading files) holds this thread, never one of Swift's cooperative pool, and
/// the system shares the cores between runs as it shared them between processes.
final class CommandThread: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var ended = false

    private init() {
        let thread = Thread { [self] in work() }
        thread.name = "offerkit command"
        thread.start()
    }

    /// Runs `body` on a thread started for it, which ends once `body` has returned.
    static func run<T: Sendable>(_ body: @Sendable () async -> T) async -> T {
        let thread = CommandThread()
        defer { thread.end() }
        return await withTaskExecutorPreference(thread) { await body() }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let late = condition.withLock {
            guard !ended else { return true }
            jobs.append(job)
            condition.signal()
            return false
        }
        // A job that comes after the run ended (none should) still runs, on a thread of its own.
        if late { Thread.detachNewThread { job.runSynchronously(on: self.asUnownedTaskExecutor()) } }
    }

    private func end() {
        condition.withLock {
            ended = true
            condition.signal()
        }
    }

    /// Runs jobs in the order they came until the run has ended and none is left.
    private func work() {
        while true {
            let job: UnownedJob? = condition.withLock {
                while jobs.isEmpty && !ended { condition.wait() }
                return jobs.isEmpty ? nil : jobs.removeFirst()
            }
            guard let job else { return }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
