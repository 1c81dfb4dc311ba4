import Foundation

/// Held while `codes apply` or `codes fetch` works on a campaign, so that a second run of either
/// on the same campaign and ledger, in any process, is refused instead of sending the same
/// requests at the same time (each would take the other's `sent` resource for one it may send
/// again). Released by ``release()``, or by the end of the process that holds it, however it ends.
public final class ConnectRunLock: Sendable {
    private let releaseOnce: @Sendable () -> Void

    package init(release: @escaping @Sendable () -> Void) { releaseOnce = release }

    /// Releases the lock (at most once; later calls do nothing).
    public func release() { releaseOnce() }

    deinit { releaseOnce() }
}
