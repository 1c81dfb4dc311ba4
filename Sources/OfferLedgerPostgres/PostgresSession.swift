import Logging
import OfferCodes
import PostgresNIO

/// One connection leased from the ledger's pool and kept across several blocking calls, so that
/// a synchronous caller can run one transaction step by step (its `insertCodes` and `body`
/// closures run on the caller's thread between the steps).
///
/// A task on the ledger's executor holds the lease and runs the steps it is sent, one after the
/// other; ``close()`` ends it, and the connection goes back to the pool.
final class PostgresSession: Sendable {
    typealias Step = @Sendable (Result<PostgresConnection, any Error>) async -> Void

    private let steps: AsyncStream<Step>.Continuation
    private let ended = ResultBox<Void>()
    private let executor: EventLoopTaskExecutor
    let logger: Logger

    init(client: PostgresClient, executor: EventLoopTaskExecutor, logger: Logger) {
        let (stream, steps) = AsyncStream.makeStream(of: Step.self)
        self.steps = steps
        self.executor = executor
        self.logger = logger
        let ended = self.ended
        Task(executorPreference: executor) {
            let iterator = StepIterator(stream.makeAsyncIterator())
            do {
                try await client.withConnection { connection in
                    while let step = await iterator.next() { await step(.success(connection)) }
                }
            } catch {
                // The lease failed (or the connection broke): every step sent since gets the error.
                while let step = await iterator.next() { await step(.failure(error)) }
            }
            ended.finish(.success(()))
        }
    }

    /// Runs `body` with the session's connection and blocks until it returns.
    func run<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) throws -> T {
        try BlockingWait.refuseEventLoopThread()
        return try submit(body).wait()
    }

    /// Sends `body` to run after the steps sent before it, without waiting: the caller waits on
    /// the box it returns (from a thread that is not an event loop's).
    func submit<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) -> ResultBox<T> {
        let box = ResultBox<T>()
        steps.yield { connection in
            do {
                box.finish(.success(try await body(connection.get())))
            } catch {
                box.finish(.failure(error))
            }
        }
        return box
    }

    /// Runs a statement and returns its rows.
    @discardableResult
    func query(_ query: PostgresQuery) throws -> [PostgresRow] {
        let logger = logger
        return try run { connection in try await connection.query(query, logger: logger).collect() }
    }

    /// Returns the connection to the pool once the steps sent so far have run.
    func close() {
        steps.finish()
        try? ended.wait()
    }
}

/// The session task's iterator over its steps (only that task uses it).
private final class StepIterator: @unchecked Sendable {
    private var iterator: AsyncStream<PostgresSession.Step>.Iterator

    init(_ iterator: AsyncStream<PostgresSession.Step>.Iterator) {
        self.iterator = iterator
    }

    func next() async -> PostgresSession.Step? {
        await iterator.next()
    }
}
