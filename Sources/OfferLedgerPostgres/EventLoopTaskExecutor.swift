import NIOCore

/// Runs the jobs of a task that prefers it on one NIO event loop. A claim sends its statement and
/// reads its row on the event loop of its connection, where postgres-nio does that work anyway,
/// instead of handing each step between that loop and Swift's pool.
///
/// Kept because a benchmark row shows it pays (`offerkit-ledger-bench`, release build, 2 cores,
/// PostgreSQL 15 on loopback): 8 processes claiming one code at a time went from 2,290–2,500
/// claims/s (6 runs, 3 of them with the prepared statement alone, which changed nothing
/// measurable there) to 3,160–3,810/s (8 runs); one process uses 18 % less CPU per claim and
/// wakes its event loop 3 times per claim instead of 4. Nothing that runs here blocks: the event
/// loop only sends, receives and resumes.
///
/// A job given to a loop that has shut down would never run (NIO drops it), and its task would
/// wait for ever: the ledger's `PostgresClient` runs on postgres-nio's default group, NIO's
/// singleton, which is never shut down. (`OfferService` has a type of the same few lines for
/// its batches; that module does not link postgres-nio, nor this one Hummingbird.)
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
