import Dispatch
import NIOCore
import NIOPosix
import OfferCodes

/// Runs async work on an ``EventLoopTaskExecutor`` and blocks the calling thread until it ends:
/// the bridge between the synchronous ``CodeLedger`` protocol and postgres-nio.
enum BlockingWait {
    /// The result of `body`, run as a task on `executor`.
    ///
    /// - Throws: what `body` throws, and ``LedgerError/databaseFailure(operation:reason:)`` when
    ///   called on an event loop thread, whose blocking could stall the connection it waits for.
    static func run<T: Sendable>(
        on executor: EventLoopTaskExecutor, _ body: @escaping @Sendable () async throws -> T
    ) throws -> T {
        try refuseEventLoopThread()
        let box = ResultBox<T>()
        Task(executorPreference: executor) {
            do {
                box.finish(.success(try await body()))
            } catch {
                box.finish(.failure(error))
            }
        }
        return try box.wait()
    }

    /// Throws when the current thread is an event loop's.
    static func refuseEventLoopThread() throws {
        if MultiThreadedEventLoopGroup.currentEventLoop != nil {
            throw LedgerError.databaseFailure(
                operation: "wait for the PostgreSQL server",
                reason: "PostgresLedger was called on a SwiftNIO event loop thread, which it must not block; call "
                    + "it from another thread (a plain thread, the main thread, or a task of Swift's pool)")
        }
    }
}

/// A result handed from a task to a blocked thread.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    // Written once by the task before it signals; read by the waiter after it is signalled.
    private var result: Result<T, any Error>?

    func finish(_ result: Result<T, any Error>) {
        self.result = result
        semaphore.signal()
    }

    func wait() throws -> T {
        semaphore.wait()
        return try result!.get()
    }
}
