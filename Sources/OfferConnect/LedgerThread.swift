import NIOPosix
import OfferCodes
import OfferConnectAPI

/// Runs the ledger's blocking calls (SQLite and PostgreSQL wait for the disk and the network) on
/// a thread of their own, one at a time, never on the threads of Swift's concurrency pool that
/// the requests' tasks run on.
final class LedgerThread: Sendable {
    let ledger: any CodeLedger
    private let pool: NIOThreadPool

    init(_ ledger: any CodeLedger) {
        self.ledger = ledger
        pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
    }

    func run<T: Sendable>(_ body: @escaping @Sendable (any CodeLedger) throws -> T) async throws -> T {
        let ledger = ledger
        return try await pool.runIfActive { try body(ledger) }
    }

    func shutdown() async { try? await pool.shutdownGracefully() }
}
