import Foundation
import NIOConcurrencyHelpers

/// A token bucket per API key: `requestsPerSecond` on average, bursts up to `burst`.
public final class RateLimiter: Sendable {
    public let requestsPerSecond: Double
    public let burst: Double
    private let now: @Sendable () -> Double
    private let buckets = NIOLockedValueBox<[String: Bucket]>([:])

    /// The longest `Retry-After` it answers, in seconds (one day).
    public static let maximumWait = 86_400

    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    /// - Parameters:
    ///   - requestsPerSecond: the sustained rate; a value that is not a positive number refills nothing.
    ///   - burst: the bucket's size, at least 1.
    ///   - now: seconds on a monotonic clock (tests pass their own).
    public init(
        requestsPerSecond: Double, burst: Double,
        now: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    ) {
        self.requestsPerSecond = requestsPerSecond.isFinite ? max(requestsPerSecond, 0) : 0
        self.burst = burst.isFinite ? max(burst, 1) : 1
        self.now = now
    }

    /// Takes one token for `key`. Returns `nil` when the request may go on, otherwise the whole
    /// seconds to wait before the next token (for `Retry-After`), at most ``maximumWait``.
    public func acquire(for key: String) -> Int? { acquire(1, for: key) }

    /// Takes `tokens` tokens for `key` at once (a batch takes one per item), or none. Returns `nil`
    /// when the request may go on, otherwise the whole seconds to wait until the bucket holds that
    /// many (for `Retry-After`), at most ``maximumWait``. More tokens than ``burst`` never fit: the
    /// caller refuses such a request before asking.
    public func acquire(_ tokens: Int, for key: String) -> Int? {
        let needed = Double(max(tokens, 1))
        let time = now()
        return buckets.withLockedValue { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: time)
            // A clock that steps back refills nothing (and takes nothing away).
            let elapsed = max(0, time - bucket.updated)
            bucket.tokens = min(burst, bucket.tokens + elapsed * requestsPerSecond)
            bucket.updated = max(bucket.updated, time)
            defer { buckets[key] = bucket }
            if bucket.tokens >= needed {
                bucket.tokens -= needed
                return nil
            }
            let wait = ((needed - bucket.tokens) / requestsPerSecond).rounded(.up)
            guard wait.isFinite, wait < Double(Self.maximumWait) else { return Self.maximumWait }
            return max(1, Int(wait))
        }
    }
}
