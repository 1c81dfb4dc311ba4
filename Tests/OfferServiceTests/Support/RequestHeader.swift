import HTTPTypes

/// Request and response header names the tests use.
enum RequestHeader {
    static let requestId = HTTPField.Name("X-Request-Id")!
}
