import Foundation

/// A flag that is claimed once: the `codes apply` locks of both backends (``ConnectRunLock``) release
/// through whichever of `release()` and the lock's end comes first, and only through it.
package final class ReleaseOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false

    package init() {}

    /// `true` the first time only.
    package func claim() -> Bool {
        lock.withLock {
            defer { claimed = true }
            return !claimed
        }
    }
}
