import Crypto
import Foundation
import OfferJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SQLiteLedgerStore {
    /// See ``CodeLedger/lockConnectRun(campaign:)``: an exclusive `flock` on a file next to the
    /// ledger, `PATH.apply-lock-HASH` (HASH: 16 hex digits of the campaign name's SHA-256; mode
    /// 0600; left in place, since removing a lock file races with the next run), which the system
    /// releases when the process ends; taken without waiting. An in-memory ledger locks within the
    /// process.
    package func lockConnectRun(campaign: String) async throws -> ConnectRunLock {
        guard let path else {
            guard ProcessLocks.shared.take(ObjectIdentifier(self), campaign) else {
                throw LedgerError.connectRunInProgress(campaign: campaign)
            }
            let identifier = ObjectIdentifier(self)
            let released = ReleaseOnce()
            return ConnectRunLock { if released.claim() { ProcessLocks.shared.give(identifier, campaign) } }
        }
        let lockPath = path + ".apply-lock-" + ConnectRunLockFile.hash(campaign)
        let descriptor = systemOpen(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw LedgerError.cannotOpen(
                path: lockPath, reason: "the lock file of codes apply: " + String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let error = errno
            close(descriptor)
            if error == EWOULDBLOCK { throw LedgerError.connectRunInProgress(campaign: campaign) }
            throw LedgerError.cannotOpen(path: lockPath, reason: "flock: " + String(cString: strerror(error)))
        }
        let released = ReleaseOnce()
        return ConnectRunLock {
            guard released.claim() else { return }
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }
}

/// The lock file's name part of a campaign.
enum ConnectRunLockFile {
    static func hash(_ campaign: String) -> String {
        Hex.string(SHA256.hash(data: Data(campaign.utf8)).prefix(8))
    }
}

/// The `codes apply` locks of in-memory ledgers, within the process.
final class ProcessLocks: @unchecked Sendable {
    static let shared = ProcessLocks()
    private let lock = NSLock()
    private var held: Set<String> = []

    func take(_ ledger: ObjectIdentifier, _ campaign: String) -> Bool {
        lock.withLock { held.insert("\(ledger)\u{0}\(campaign)").inserted }
    }

    func give(_ ledger: ObjectIdentifier, _ campaign: String) {
        _ = lock.withLock { held.remove("\(ledger)\u{0}\(campaign)") }
    }
}
