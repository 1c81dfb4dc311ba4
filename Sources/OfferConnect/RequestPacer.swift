import Foundation
import OfferConnectAPI

/// Spaces the run's requests so that it does not run into App Store Connect's hourly limit
/// needlessly, and holds every request back after a `429`.
///
/// While the last `X-Rate-Limit` leaves more than ``reserve`` requests, requests start as soon as
/// they are ready (the number in flight is bounded elsewhere). At or below the reserve, they start
/// at most one every `3600 / limit` seconds: the rate at which a rolling hour gives requests
/// back, so the run keeps going at the sustainable rate instead of spending the rest and hitting
/// `429`. Between answers, each request started counts against the remaining number.
actor RequestPacer {
    /// Requests kept in hand: at least the number that may be in flight, so that the answers
    /// still on their way cannot take the key over its limit.
    let reserve: Int
    private var status: RateLimitStatus?
    private var nextStart: ContinuousClock.Instant = .now
    private var pausedUntil: ContinuousClock.Instant?

    init(reserve: Int) { self.reserve = max(reserve, 1) }

    /// The last status App Store Connect reported (with the requests started since counted).
    var lastStatus: RateLimitStatus? { status }

    /// Waits until the next request may start.
    func turn() async throws {
        let now = ContinuousClock.now
        var start = now
        if let pausedUntil, pausedUntil > start { start = pausedUntil }
        if let status, status.remaining <= reserve {
            let spacing = Duration.milliseconds(Int64((3_600_000.0 / Double(status.limit)).rounded(.up)))
            start = max(start, nextStart)
            nextStart = start + spacing
        }
        if var status {
            status.remaining = max(0, status.remaining - 1)
            self.status = status
        }
        if start > now { try await Task.sleep(until: start, clock: .continuous) }
    }

    /// Takes in what an answer's `X-Rate-Limit` says.
    func observe(_ status: RateLimitStatus) { self.status = status }

    /// Holds every request back for `delay` (after a `429`).
    func pause(for delay: Duration) {
        let until = ContinuousClock.now + delay
        if pausedUntil.map({ $0 < until }) ?? true { pausedUntil = until }
    }
}
