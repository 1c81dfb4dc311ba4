import Foundation

/// A request body that does not match its schema: which field, and what was expected there.
public struct SchemaViolation: Error, Sendable, Equatable, LocalizedError {
    /// The field's path, such as `productId` or `request.items[0].SKU`; `(body)` for the whole body.
    public var field: String
    /// What the field must be.
    public var expected: String
    /// What was found instead, described without echoing strings: `the number 3601`,
    /// `a string of 12 characters`, `the boolean true`, `null`, `an array of 2 elements`.
    public var found: String
    /// The message after the field when it reads better than "expected …, found …": a number out
    /// of bounds says `3601 is above 3600`.
    public var reason: String?

    public init(field: String, expected: String, found: String, reason: String? = nil) {
        self.field = field
        self.expected = expected
        self.found = found
        self.reason = reason
    }

    /// `transactionId: expected a string, found the number 2000000123456789`, or
    /// `lifetime: 3601 is above 3600`.
    public var errorDescription: String? { "\(field): " + (reason ?? "expected \(expected), found \(found)") }
}
