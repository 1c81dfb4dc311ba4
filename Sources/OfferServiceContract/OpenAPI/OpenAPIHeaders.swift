import OfferJSON
import OfferSigning

/// The response headers the document describes, written once under `components/headers`.
package enum OpenAPIHeaders {
    package static let requestId = "X-Request-Id"
    package static let retryAfter = "Retry-After"
    package static let wwwAuthenticate = "WWW-Authenticate"
    package static let allow = "Allow"
    package static let connection = "Connection"

    /// A `$ref` to the header `name`.
    package static func reference(_ name: String) -> JSONValue { .reference("#/components/headers/\(name)") }

    /// The headers of a response: `X-Request-Id`, then those of `problems`, each once.
    package static func forResponse(problems: [ProblemType] = []) -> JSONValue {
        var names = [requestId]
        for name in problems.flatMap(\.documentedHeaders) where !names.contains(name) { names.append(name) }
        return .object(names.map { (key: $0, value: reference($0)) })
    }

    /// `components/headers`, sorted by name.
    package static var components: JSONValue {
        let headers: [(key: String, value: JSONValue)] = [
            (
                requestId,
                header(
                    "The request's id, on every response: the caller's `X-Request-Id` when it is 1–128 characters of "
                        + "`A–Z a–z 0–9 . _ : -`, otherwise a fresh one. The log line and any problem carry it.",
                    schema: .object([("type", .string("string"))]), required: true)
            ),
            (
                retryAfter,
                header(
                    "Seconds to wait before retrying: always with `rate-limited` and `ledger-unavailable`, and with "
                        + "`unavailable` when the service is shutting down.",
                    schema: .object([("type", .string("integer")), ("minimum", .integer(0))]))
            ),
            (
                wwwAuthenticate,
                header(
                    "The authentication the service expects (RFC 6750): `Bearer realm=\"offerkit\"`, with "
                        + "`error=\"invalid_token\"` when the request presented a key the service does not know.",
                    schema: .object([("type", .string("string"))]))
            ),
            (
                connection,
                header(
                    "`close` on the problems that leave the request unread (`bad-request`, `body-timeout`, "
                        + "`body-too-large`): the service closes the connection after the response.",
                    schema: .object([("type", .string("string")), ("enum", .array([.string("close")]))]))
            ),
            (
                allow,
                header(
                    "The methods the path takes, such as `GET` or `POST` (RFC 9110).",
                    schema: .object([("type", .string("string"))]))
            ),
        ]
        return .object(headers.sorted { $0.key < $1.key })
    }

    private static func header(_ description: String, schema: JSONValue, required: Bool = false) -> JSONValue {
        .members([
            ("description", .string(description)), ("required", required ? .bool(true) : nil), ("schema", schema),
        ])
    }
}
