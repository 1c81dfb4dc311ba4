import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OfferSigning

/// Runs one ``ServiceOperation`` for a request: authentication, scope, rate limit, body
/// (media type, size, JSON, schema), then the handler under the request timeout.
struct OperationResponder: Sendable {
    let operation: ServiceOperation
    let state: ServiceState

    func respond(to request: Request, context: ServiceRequestContext) async throws -> Response {
        var logger = context.logger
        logger[metadataKey: "operation"] = .string(operation.id)
        let apiKey = try authorize(request, logger: &logger)
        var body: JSONValue?
        if let schema = operation.requestSchema {
            body = try await readBody(request, schema: schema)
        }
        var query: [String: String] = [:]
        for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
        let input = OperationRequest(
            body: body, query: query, headers: request.headers, apiKey: apiKey, state: state, logger: logger)
        let output = try await withTimeout(seconds: state.limits.requestTimeoutSeconds) {
            try await operation.handler(input)
        }
        return Self.response(output)
    }

    /// The API key for the request, checked against the operation's scope and the rate limit.
    private func authorize(_ request: Request, logger: inout Logger) throws(ServiceProblem) -> APIKey? {
        guard let scope = operation.scope else { return nil }
        guard state.authentication == .required else {
            try limitRate(for: "(no authentication)")
            return nil
        }
        guard let key = state.apiKeys.authenticate(authorization: request.headers[.authorization]) else {
            let detail =
                request.headers[.authorization] == nil
                ? "send the API key as `Authorization: Bearer <key>`"
                : "the Authorization header does not hold a known API key"
            throw ServiceProblem(
                .unauthorized, detail: detail, headers: [("WWW-Authenticate", "Bearer realm=\"offerkit\"")])
        }
        logger[metadataKey: "api.key"] = .string(key.name)
        guard key.allows(scope) else {
            throw ServiceProblem(
                .forbidden, detail: "API key '\(key.name)' does not have the scope '\(scope.rawValue)'")
        }
        try limitRate(for: key.name)
        return key
    }

    private func limitRate(for name: String) throws(ServiceProblem) {
        if let wait = state.rateLimiter.acquire(for: name) {
            throw ServiceProblem(
                .rateLimited,
                detail:
                    "API key '\(name)' made more than \(Int(state.limits.requestsPerSecond)) requests per second; retry in \(wait) s",
                headers: [("Retry-After", String(wait))])
        }
    }

    /// The body as JSON, checked against `schema`.
    private func readBody(_ request: Request, schema: JSONSchema) async throws -> JSONValue {
        guard Self.isJSON(request.headers[.contentType]) else {
            throw ServiceProblem(
                .unsupportedMediaType,
                detail: "send the body as JSON with `Content-Type: application/json`"
                    + (request.headers[.contentType].map { " (found \($0.prefix(64)))" } ?? " (found none)"))
        }
        let buffer = try await request.body.collect(upTo: state.limits.maxBodyBytes)
        let json: JSONValue
        do {
            json = try JSONValue.parse(Array(buffer.readableBytesView))
        } catch {
            throw ServiceProblem(.malformedJSON, detail: "the body is not valid JSON: \(error)")
        }
        do {
            try SchemaValidator().validate(json, against: schema)
        } catch {
            throw ServiceProblem.invalid(error)
        }
        return json
    }

    /// `application/json`, with or without parameters such as `charset=utf-8`.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        return mediaType == "application/json"
    }

    /// Runs `work`, or throws a `timeout` problem after `seconds`. The operation is cancelled
    /// then; long operations check for cancellation.
    private func withTimeout(
        seconds: Double, _ work: @escaping @Sendable () async throws -> OperationResponse
    ) async throws -> OperationResponse {
        try await withThrowingTaskGroup(of: OperationResponse?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let response = first else {
                throw ServiceProblem(
                    .timeout, detail: "the operation took longer than \(Self.format(seconds)) s and was stopped")
            }
            return response
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    static func response(_ output: OperationResponse) -> Response {
        var headers: HTTPFields = [:]
        var bytes: [UInt8]
        switch output.body {
        case .json(let json):
            headers[.contentType] = "application/json"
            bytes = json.serialized(pretty: false)
            bytes.append(UInt8(ascii: "\n"))
        case .text(let text, let mediaType):
            headers[.contentType] = mediaType
            bytes = Array(text.utf8)
        }
        if output.noStore { headers[.cacheControl] = "no-store" }
        for (name, value) in output.headers {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
        return Response(
            status: HTTPResponse.Status(code: output.status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
