import Foundation

/// A request body that does not match its schema: which field, and what was expected there.
public struct SchemaViolation: Error, Sendable, Equatable, LocalizedError {
    /// The field's path, such as `productId` or `request.items[0].SKU`; `(body)` for the whole body.
    public var field: String
    /// What the field must be.
    public var expected: String
    /// What was found instead, described without echoing long values.
    public var found: String

    public init(field: String, expected: String, found: String) {
        self.field = field
        self.expected = expected
        self.found = found
    }

    public var errorDescription: String? { "\(field): expected \(expected), found \(found)" }
}
