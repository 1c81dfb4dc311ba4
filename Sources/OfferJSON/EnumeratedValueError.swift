import Foundation

/// A value that is not one of a field's spellings: which field, what was given (bounded, control
/// characters escaped, never a long value such as a key pasted into the wrong field) and what is
/// accepted.
public struct EnumeratedValueError: Error, Sendable, Equatable, LocalizedError {
    /// Where the value was read: `environment`, `--format`, `retention.environments[1]`.
    public var field: String
    /// The value as shown in messages (``EnumeratedSpelling/shown(_:)``): `"staging"`, or `a string
    /// of 300 characters (not shown)`.
    public var given: String
    /// The spellings accepted (in any case), as output writes them.
    public var accepted: [String]

    /// An error for `given` (shown by ``EnumeratedSpelling/shown(_:)``), read at `field`.
    public init(field: String, given: String, accepted: [String]) {
        self.field = field
        self.given = EnumeratedSpelling.shown(given)
        self.accepted = accepted
    }

    /// What is expected: `"PRODUCTION" or "SANDBOX" (in any case)`.
    public var expected: String { EnumeratedSpelling.list(accepted) + " (in any case)" }

    /// `environment: "staging" is not "PRODUCTION" or "SANDBOX" (in any case)`.
    public var errorDescription: String? { "\(field): \(given) is not \(expected)" }
}
