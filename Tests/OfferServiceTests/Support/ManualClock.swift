import Foundation

/// A clock for the rate limiter that only moves when a test moves it.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds = 1000.0

    var now: Double { lock.withLock { seconds } }

    func advance(by interval: Double) { lock.withLock { seconds += interval } }
}
