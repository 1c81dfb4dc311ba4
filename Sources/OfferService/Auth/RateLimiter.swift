import Foundation
import NIOConcurrencyHelpers

/// A token bucket per API key: `requestsPerSecond` on average, bursts up to `burst`.
public final class RateLimiter: Sendable {
    public let requestsPerSecond: Double
    public let burst: Double
    private let now: @Sendable () -> Double
    private let buckets = NIOLockedValueBox<[String: Bucket]>([:])

    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    /// - Parameter now: seconds on a monotonic clock (tests pass their own).
    public init(
        requestsPerSecond: Double, burst: Double,
        now: @escaping @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    ) {
        self.requestsPerSecond = requestsPerSecond
        self.burst = max(burst, 1)
        self.now = now
    }

    /// Takes one token for `key`. Returns `nil` when the request may go on, otherwise the whole
    /// seconds to wait before the next token (for `Retry-After`).
    public func acquire(for key: String) -> Int? {
        let time = now()
        return buckets.withLockedValue { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: time)
            bucket.tokens = min(burst, bucket.tokens + (time - bucket.updated) * requestsPerSecond)
            bucket.updated = time
            defer { buckets[key] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return max(1, Int(((1 - bucket.tokens) / requestsPerSecond).rounded(.up)))
        }
    }
}
