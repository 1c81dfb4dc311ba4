import Foundation

/// Held while `codes apply` or `codes fetch` works on a campaign, so that a second run of either
/// on the same campaign and ledger, in any process, is refused instead of sending the same
/// requests at the same time (each would take the other's `sent` resource for one it may send
/// again). Released by ``release()``, or by the end of the process that holds it, however it ends.
///
/// A lock that is let go without ``release()`` is released too, but without waiting: on
/// PostgreSQL, once the server has seen its connection end.
public final class ConnectRunLock: Sendable {
    private let releaseNow: @Sendable () async -> Void
    private let letGo: @Sendable () -> Void

    /// A lock released at once, the same way by ``release()`` and when let go.
    package init(release: @escaping @Sendable () -> Void) {
        releaseNow = { release() }
        letGo = release
    }

    /// A lock whose ``release()`` waits until it is released (`release`), and which is released
    /// without waiting when let go (`letGo`). Each must do nothing when the other ran.
    package init(release: @escaping @Sendable () async -> Void, letGo: @escaping @Sendable () -> Void) {
        releaseNow = release
        self.letGo = letGo
    }

    /// Releases the lock (at most once; later calls return at once and do nothing). When the
    /// first call returns, another run can take the lock.
    public func release() async { await releaseNow() }

    deinit { letGo() }
}
