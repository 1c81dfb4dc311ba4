import Foundation

/// When a connection's current wait for the SQLite file's lock began (see
/// ``SQLiteLedgerStore/busyHandler()``): SQLite counts the looks of each wait from 0, and the handler
/// needs the time of look 0 to know when to give up.
final class BusyWaitStart: @unchecked Sendable {
    private let lock = NSLock()
    private var started: UInt64 = 0

    /// The wait's start: `now` itself on its first look (which begins a new wait).
    func start(_ now: UInt64, isFirstLook: Bool) -> UInt64 {
        lock.withLock {
            if isFirstLook { started = now }
            return started
        }
    }
}
