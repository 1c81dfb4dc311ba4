import Dispatch

/// Threads for operations that can run long (campaign validation and planning): their jobs run
/// on a concurrent Dispatch queue, never on the event loops that serve connections, so one large
/// campaign does not hold up other requests (`offerkit serve` runs Swift concurrency on NIO's
/// event loops).
final class WorkerExecutor: TaskExecutor {
    static let shared = WorkerExecutor()

    private let queue = DispatchQueue(label: "offerkit.service.workers", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
