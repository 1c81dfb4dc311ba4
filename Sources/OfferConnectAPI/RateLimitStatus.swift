/// What App Store Connect's `X-Rate-Limit` header says (`user-hour-lim:3500;user-hour-rem:500;`):
/// the requests the API key may make in a rolling hour, and how many of them are left.
public struct RateLimitStatus: Sendable, Equatable {
    /// Requests per rolling hour.
    public var limit: Int
    /// Requests left in the current hour.
    public var remaining: Int

    public init(limit: Int, remaining: Int) {
        self.limit = limit
        self.remaining = remaining
    }

    /// The largest number either field may hold; a header with larger numbers is ignored.
    package static let largest = 100_000_000

    /// The status in `header`, or `nil` when it does not give both numbers in range.
    public init?(header: String) {
        guard header.utf8.count <= 1_024 else { return nil }
        var limit: Int?
        var remaining: Int?
        for part in header.split(separator: ";") {
            let pair = part.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[1].utf8.count <= 9, pair[1].utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let value = Int(pair[1]), value <= Self.largest
            else { continue }
            switch pair[0] {
            case "user-hour-lim": limit = value
            case "user-hour-rem": remaining = value
            default: continue
            }
        }
        guard let limit, let remaining, limit > 0, remaining <= limit else { return nil }
        self.init(limit: limit, remaining: remaining)
    }
}
