import NIOCore

/// A task executor that runs jobs on one NIO event loop.
///
/// The ledger's PostgreSQL work (the client's background task, every query) runs on tasks that
/// prefer this executor, never on Swift's shared cooperative pool. A synchronous ledger method
/// blocks its calling thread until that work is done; when the caller is itself a thread of the
/// cooperative pool (an `async` test, say), the work can still run, however many such threads
/// are blocked.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
