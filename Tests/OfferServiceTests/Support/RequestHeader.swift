import HTTPTypes

/// Request and response header names the tests use.
enum RequestHeader {
    static let requestID = HTTPField.Name("X-Request-Id")!
}
