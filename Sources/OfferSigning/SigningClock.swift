import Foundation

/// Where signers read the time for `iat`, `exp` and legacy timestamps.
public struct SigningClock: Sendable {
    private let read: @Sendable () -> Date

    /// A clock backed by a closure.
    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
    }

    /// The current time.
    public func now() -> Date { read() }

    /// The system's wall clock.
    public static let system = SigningClock { Date() }

    /// A clock that always reads `date`: for tests and reproducible vectors.
    public static func fixed(_ date: Date) -> SigningClock {
        SigningClock { date }
    }
}
