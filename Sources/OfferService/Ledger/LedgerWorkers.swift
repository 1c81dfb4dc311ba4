import NIOConcurrencyHelpers
import NIOPosix

/// The threads that run the ledger's blocking calls (``CodeLedger`` is synchronous: SQLite, or
/// postgres-nio waited for), so that they never block an event loop or a thread of Swift's
/// cooperative pool (which `offerkit serve` runs on the event loops).
///
/// A request waits for a free thread in a queue, under its request timeout: when the timeout
/// passes, the request is answered 503 `timeout` at once. A call that has not started by then is
/// skipped; one already running cannot be stopped halfway and finishes on its thread (a claim it
/// records is returned again, `new: false`, when the client retries).
final class LedgerWorkers: Sendable {
    /// Four threads: `PostgresLedger` keeps at most four connections to its server, so a fifth
    /// call would only wait for a connection; `SQLiteLedger` runs one call at a time on its one
    /// database connection, and handing out codes of one offer is serialized by the ledger on
    /// both (one offer's lock), so more threads would only wait there. Four waiting threads cost
    /// about nothing; one would make a slow status read hold up every claim.
    static let defaultThreadCount = 4

    private let pool: NIOThreadPool

    /// Starts `threads` threads (at least one).
    init(threads: Int = defaultThreadCount) {
        pool = NIOThreadPool(numberOfThreads: max(1, threads))
        pool.start()
    }

    deinit {
        // The threads end once the queue is empty; nothing waits for them.
        pool.shutdownGracefully { _ in }
    }

    /// The result of `body`, run on one of the threads; throws `CancellationError` as soon as the
    /// calling task is cancelled (its request timed out), whether `body` has started or not.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let job = Job<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard job.install(continuation) else { return }
                pool.submit { state in
                    guard case .active = state, job.begin() else {
                        job.cancel()
                        return
                    }
                    job.finish(Result(catching: body))
                }
            }
        } onCancel: {
            job.cancel()
        }
    }

    /// One call's continuation, resumed exactly once: with the result, or with `CancellationError`
    /// when the task is cancelled first.
    private final class Job<T: Sendable>: Sendable {
        private enum State {
            case created
            /// Cancelled before the continuation was installed.
            case cancelledEarly
            case queued(CheckedContinuation<T, any Error>)
            case running(CheckedContinuation<T, any Error>)
            case done
        }
        private let state = NIOLockedValueBox(State.created)

        /// Keeps the continuation; `false` (having resumed it) when the task was already cancelled.
        func install(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
            let cancelled = state.withLockedValue { state in
                guard case .created = state else {
                    state = .done
                    return true
                }
                state = .queued(continuation)
                return false
            }
            if cancelled { continuation.resume(throwing: CancellationError()) }
            return !cancelled
        }

        /// Whether the call should run: `false` once cancelled.
        func begin() -> Bool {
            state.withLockedValue { state in
                guard case .queued(let continuation) = state else { return false }
                state = .running(continuation)
                return true
            }
        }

        func finish(_ result: Result<T, any Error>) {
            let continuation = state.withLockedValue { state -> CheckedContinuation<T, any Error>? in
                guard case .running(let continuation) = state else { return nil }
                state = .done
                return continuation
            }
            continuation?.resume(with: result)
        }

        func cancel() {
            let continuation = state.withLockedValue { state -> CheckedContinuation<T, any Error>? in
                switch state {
                case .created:
                    state = .cancelledEarly
                    return nil
                case .queued(let continuation), .running(let continuation):
                    state = .done
                    return continuation
                case .cancelledEarly, .done:
                    return nil
                }
            }
            continuation?.resume(throwing: CancellationError())
        }
    }
}
