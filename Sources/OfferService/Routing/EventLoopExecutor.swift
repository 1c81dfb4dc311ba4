import NIOCore
import NIOPosix

/// Runs a task's jobs on one NIO event loop.
///
/// `offerkit serve` runs Swift concurrency on NIO's event loops, and there the global executor
/// keeps a task on the loop that started it: child tasks of a task group would all run on one
/// core. A batch gives each of its chunks one loop of its own (``all``), so that it is signed on
/// every core.
final class EventLoopExecutor: TaskExecutor {
    let loop: any EventLoop

    init(loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        loop.execute { job.runSynchronously(on: executor) }
    }

    /// One executor for each loop of NIO's singleton group (one loop per core), the group that
    /// Hummingbird serves on; none when the application turned NIO's singletons off.
    static let all: [EventLoopExecutor] =
        NIOSingletons.singletonsEnabledSuggestion
        ? MultiThreadedEventLoopGroup.singleton.makeIterator().map { EventLoopExecutor(loop: $0) } : []
}
