import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Blocking work on a thread the test owns, never on Swift's cooperative pool.
///
/// Some tests must block a thread: to hold a SQLite write lock while another writer tries, or to
/// stand for a synchronous job that never checks for cancellation. Done on the pool (one thread per
/// core), that would hold up every other test of the process; here it runs on a `Thread` started for
/// it, and the test awaits the result without holding a thread.
public enum OwnedThread {
    private static let marker = "offerkit.tests.owned-thread"

    /// Runs `body` on a new thread and returns what it returned.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            start { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Runs `body` on a new thread and returns what it returned.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            start { continuation.resume(returning: body()) }
        }
    }

    /// Starts `body` on a new thread and returns at once.
    public static func start(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            Thread.current.threadDictionary[marker] = true
            body()
        }
        thread.start()
    }

    /// Whether the current thread was started by ``run(_:)`` or ``start(_:)``.
    public static var isCurrent: Bool { Thread.current.threadDictionary[marker] as? Bool == true }

    /// Blocks the current thread for `seconds`: only on a thread of ``run(_:)`` or ``start(_:)`` (a
    /// precondition), so that no test ever sleeps on a thread of Swift's pool.
    public static func pause(_ seconds: Double) {
        precondition(isCurrent, "OwnedThread.pause blocks its thread: call it on an OwnedThread only")
        var remaining = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        while true {
            var request = remaining
            guard nanosleep(&request, &remaining) != 0, errno == EINTR else { return }
        }
    }
}
