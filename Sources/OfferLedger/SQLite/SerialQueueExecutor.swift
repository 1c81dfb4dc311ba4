import Dispatch

/// A serial dispatch queue as a task executor: the jobs of a task that prefers it run one at a
/// time on the queue's thread, never on Swift's pool. Each SQLite connection of the ledger has
/// one (``SQLiteLedgerConnection``), where its statements run and may wait for the disk.
///
/// The queue targets libdispatch's default overcommit root queue, which brings up a thread of
/// its own when its others are blocked, and whose threads are not those of Swift's cooperative
/// pool: a job blocked there in an `fsync`, or for up to 10 seconds in the busy handler while
/// another process holds the file, leaves the pool free.
final class SerialQueueExecutor: TaskExecutor {
    private let queue: DispatchQueue

    init(label: String) { queue = DispatchQueue(label: label) }

    /// Stops the process unless the caller runs on the queue (a broken promise of the code, not
    /// of its input: work that may block must never land on Swift's pool).
    func assertOnQueue() { dispatchPrecondition(condition: .onQueue(queue)) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
