import Foundation
import OfferJSON
import OfferSigning

/// An error that the service answers with an `application/problem+json` response.
public struct ServiceProblem: Error, Sendable, LocalizedError {
    public var type: ProblemType
    /// What happened in this request, for a person. Never contains key material.
    public var detail: String
    /// The path of the field at fault, when there is one.
    public var field: String?
    /// Further members of the problem object (for example `problems` for a campaign).
    package var extensions: [(key: String, value: JSONValue)]
    /// Extra response headers (`Retry-After`, `Allow`, `WWW-Authenticate`).
    public var headers: [(name: String, value: String)]

    package init(
        _ type: ProblemType, detail: String, field: String? = nil, extensions: [(key: String, value: JSONValue)] = [],
        headers: [(name: String, value: String)] = []
    ) {
        self.type = type
        self.detail = detail
        self.field = field
        self.extensions = extensions
        self.headers = headers
    }

    public var errorDescription: String? {
        field.map { "\(type.title): \($0): \(detail)" } ?? "\(type.title): \(detail)"
    }

    /// The problem object: `type`, `title`, `status`, `detail`, `requestId`, then `field` and any
    /// extensions.
    package func jsonValue(requestId: String) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("type", .string(type.uri)), ("title", .string(type.title)), ("status", .integer(type.status)),
            ("detail", .string(detail)), ("requestId", .string(requestId)),
        ]
        if let field { members.append(("field", .string(field))) }
        members.append(contentsOf: extensions)
        return .object(members)
    }
}

extension ServiceProblem {
    /// A request body that does not match its schema.
    public static func invalid(_ violation: SchemaViolation) -> ServiceProblem {
        ServiceProblem(
            .invalidField, detail: violation.errorDescription ?? violation.field,
            field: violation.field)
    }

    /// A field the signing library refused; `prefix` is where the library's request sits in the
    /// body (`request` + `items[0].SKU` → `request.items[0].SKU`), and `detail` names the same path.
    public static func invalid(_ error: RequestValidationError, under prefix: String? = nil) -> ServiceProblem {
        let description = error.errorDescription ?? "\(error.field) is invalid"
        guard let prefix, !prefix.isEmpty else {
            return ServiceProblem(.invalidField, detail: description, field: error.field)
        }
        let separator = error.field.hasPrefix("[") ? "" : "."
        // The library's messages begin with the field's path.
        let detail = prefix + separator + description
        return ServiceProblem(.invalidField, detail: detail, field: prefix + separator + error.field)
    }

    /// A request to the Get Retention Message endpoint that is refused: always the same words,
    /// whatever the reason (the log and the metrics have it).
    public static let unverifiedRequest = ServiceProblem(
        .unverifiedRequest,
        detail: "the request is not a recent App Store signed request for an app this service serves")

    /// A key named `keyName` without the scope an operation (or a batch item) needs: 403 `forbidden`.
    package static func missingScope(keyName: String, scope: OperationScope) -> ServiceProblem {
        ServiceProblem(.forbidden, detail: "API key '\(keyName)' does not have the scope '\(scope.rawValue)'")
    }

    /// A request whose HTTP/1.1 framing the service's parser refused (`what` says how; `parser` is
    /// the parser's own words): 400 `bad-request`, and the connection is closed.
    package static func badRequest(_ what: String, parser: String) -> ServiceProblem {
        ServiceProblem(.badRequest, detail: "\(what); the connection is closed (HTTP parser: \(parser))")
    }

    /// What ``badRequest(_:parser:)`` says of a body cut short.
    package static let bodyEndedEarly =
        "the connection ended before the body did (fewer bytes than its Content-Length, or no final zero-size chunk)"

    /// A request body that had not arrived in full after `seconds`, the request timeout.
    package static func bodyTimeout(seconds: String) -> ServiceProblem {
        ServiceProblem(
            .bodyTimeout,
            detail: "the request body had not arrived in full after \(seconds) s (the request timeout); the connection "
                + "is closed")
    }

    /// A request body larger than `limit` bytes.
    public static func bodyTooLarge(limit: Int?) -> ServiceProblem {
        ServiceProblem(
            .bodyTooLarge,
            detail: limit.map { "the request body is larger than the limit of \($0) bytes" }
                ?? "the request body is larger than the limit")
    }
}
