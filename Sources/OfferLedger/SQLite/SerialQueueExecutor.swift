import Dispatch

/// A serial dispatch queue as a task executor: the jobs of a task that prefers it run one at a
/// time on the queue's thread, never on Swift's pool. Each SQLite connection of the ledger has
/// one (``SQLiteConnection``), where its statements run and may wait for the disk.
///
/// The queue targets libdispatch's default global queue, whose threads are not the threads of
/// Swift's cooperative pool: a job blocked there in an `fsync`, or for up to 10 seconds in the
/// busy handler while another process holds the file, leaves the pool free.
final class SerialQueueExecutor: TaskExecutor {
    private let queue: DispatchQueue

    init(label: String) { queue = DispatchQueue(label: label) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
