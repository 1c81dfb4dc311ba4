import NIOCore
import NIOPosix

/// Threads for work that can run long (campaign validation and planning, and requests with a large
/// body, such as a batch of many items): its jobs run on threads of its own, one per core, never on
/// the event loops that serve connections (where `offerkit serve` runs Swift concurrency) nor on
/// the threads of Swift's cooperative pool (where an application that embeds the service, and
/// libdispatch's global queues, run theirs), so one large request does not hold up the others: the
/// system's scheduler shares the cores between them.
final class WorkerExecutor: TaskExecutor {
    static let shared = WorkerExecutor()

    /// Whether the current task does a request's work on the worker threads (a large body, see
    /// ``OperationResponder/inlineBodyLimit``): the tasks it starts (a batch's chunks) run here too,
    /// not on the event loops, which would serve none of their connections meanwhile (a loop runs
    /// every task queued on it before it reads a socket again, so a task that yields there does not
    /// let the connections in).
    @TaskLocal static var carriesRequest = false

    /// The threads, one per core; they live as long as the process.
    private let pool: NIOThreadPool

    private init() {
        pool = NIOThreadPool(numberOfThreads: System.coreCount)
        pool.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        // The pool is never shut down: every job runs.
        pool.submit { _ in job.runSynchronously(on: executor) }
    }
}
