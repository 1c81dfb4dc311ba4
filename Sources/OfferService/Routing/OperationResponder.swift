import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import OfferJSON
import OfferSigning

/// Runs one ``ServiceOperation`` for a request: authentication, scope, rate limit, body
/// (media type, size, JSON, schema), then the handler under the request timeout.
struct OperationResponder: Sendable {
    let operation: ServiceOperation
    let state: ServiceState
    /// Whether the operation runs in the request's own task, without the request timeout's task and
    /// timer: it answers from memory, or only computes while the connection times its body.
    var runsInline = false

    func respond(to request: Request, context: ServiceRequestContext) async throws -> Response {
        context.operationId = operation.id
        var logger = context.logger
        logger[metadataKey: "operation"] = .string(operation.id)
        let apiKey = try authorize(request, context: context, logger: &logger)
        let parameters = try pathParameters(context)
        var query: [String: String] = [:]
        for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
        let logged = logger
        let input = { @Sendable [state, query, context] (body: JSONValue?, rawBody: [UInt8]?) in
            OperationRequest(
                body: body, rawBody: rawBody, parameters: parameters, query: query, headers: request.headers,
                apiKey: apiKey, state: state, logger: logged, requestId: context.requestId,
                annotate: { metadata in context.logMetadata.merge(metadata) { $1 } })
        }
        if runsInline {
            // Nothing here waits but the body, which the connection times (``ConnectionGuard``).
            if let limit = operation.rawBodyLimit {
                let rawBody = try await readRawBody(request, limit: limit, deadline: nil)
                return Self.response(try await operation.handler(input(nil, rawBody)))
            }
            guard let schema = operation.requestSchema else {
                return Self.response(try await operation.handler(input(nil, nil)))
            }
            let bytes = try await readJSONBytes(request, deadline: nil)
            let work: @Sendable () async throws -> Response = { [operation] in
                let body = try Self.decode(bytes, schema: operation.envelopeSchema ?? schema)
                return Self.response(try await operation.handler(input(body, nil)))
            }
            guard bytes.readableBytes > Self.inlineBodyLimit else { return try await work() }
            // A large body (a batch of many items) is parsed, handled and its answer encoded on the
            // worker threads, a batch's chunks too: in `offerkit serve` this task runs on an event
            // loop, which would serve none of its other connections meanwhile.
            let task = Task(executorPreference: WorkerExecutor.shared) {
                try await WorkerExecutor.$carriesRequest.withValue(true, operation: work)
            }
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        }
        // One deadline for reading the body, parsing it and the handler: a client that sends its
        // body slowly cannot hold the operation longer than the request timeout.
        return try await withTimeout { [operation] deadline in
            var body: JSONValue?
            var rawBody: [UInt8]?
            if let limit = operation.rawBodyLimit {
                rawBody = try await readRawBody(request, limit: limit, deadline: deadline)
            } else if let schema = operation.requestSchema {
                body = try await readBody(request, schema: operation.envelopeSchema ?? schema, deadline: deadline)
            }
            return try await operation.handler(input(body, rawBody))
        }
    }

    /// The API key for the request, checked against the operation's scope and the rate limit. Once
    /// the key is known, the context and the logger name it (also when scope or rate limit refuse).
    /// An operation that authorizes per item (a batch) only needs a known key here: its handler
    /// checks each item's scope and takes the rate limit's tokens, one per item.
    private func authorize(
        _ request: Request, context: ServiceRequestContext, logger: inout Logger
    ) throws(ServiceProblem) -> APIKey? {
        guard operation.scope != nil || operation.authorizesPerItem else { return nil }
        guard state.authentication == .required else {
            if !operation.authorizesPerItem { try limitRate(for: "(no authentication)") }
            return nil
        }
        let authorization = request.headers[.authorization]
        guard let key = state.apiKeys.authenticate(authorization: authorization) else {
            // RFC 6750 section 3: a challenge, with `invalid_token` when a credential was presented.
            let challenge =
                authorization == nil ? #"Bearer realm="offerkit""# : #"Bearer realm="offerkit", error="invalid_token""#
            let detail =
                authorization == nil
                ? "send the API key as `Authorization: Bearer <key>`"
                : "the Authorization header does not hold a known API key"
            throw ServiceProblem(.unauthorized, detail: detail, headers: [("WWW-Authenticate", challenge)])
        }
        context.apiKeyName = key.name
        logger[metadataKey: "api.key"] = .string(key.name)
        guard let scope = operation.scope else { return key }
        guard key.allows(scope) else { throw ServiceProblem.missingScope(key: key, scope: scope) }
        try limitRate(for: key.name)
        return key
    }

    /// The operation's path parameters, percent-decoded and checked against their schemas: a
    /// value that does not match is a 422 `invalid-field` naming the parameter.
    private func pathParameters(_ context: ServiceRequestContext) throws(ServiceProblem) -> [String: String] {
        var parameters: [String: String] = [:]
        for parameter in operation.pathParameters {
            let raw = context.parameters.get(parameter.name) ?? ""
            let value = raw.removingPercentEncoding ?? raw
            do {
                try SchemaValidator().validate(
                    .object([(parameter.name, .string(value))]), against: .object([parameter]))
            } catch {
                throw ServiceProblem.invalid(error)
            }
            parameters[parameter.name] = value
        }
        return parameters
    }

    private func limitRate(for name: String) throws(ServiceProblem) {
        if let wait = state.rateLimiter.acquire(for: name) {
            throw ServiceProblem.rateLimited(name: name, limiter: state.rateLimiter, wait: wait)
        }
    }

    /// The size above which an operation that runs inline reads its body on the worker threads
    /// (``WorkerExecutor``): 64 KiB, parsed in well under a millisecond. Single requests are far
    /// smaller; a batch of a few hundred items is larger.
    static let inlineBodyLimit = 64 << 10

    /// The body as JSON, checked against `schema`. A body that has not arrived when `deadline`
    /// expires is the client's fault (408 `body-timeout`), as is a connection that breaks while it
    /// is read (400 `bad-request`; NIO's parser errors become one in ``ProblemMiddleware``).
    ///
    /// Never inlined: inlined into the closure of ``respond(to:context:)`` that reads the body
    /// under the request timeout, the call of `decode` (typed throws) made Swift 6.3.1's release
    /// build crash (signal 11 in LLVM's coroutine splitting, `emitSetAndGetSwiftErrorValueAround`).
    /// `.ci/release-binary` builds the release binary in CI, so that the next such crash fails CI.
    @inline(never)
    private func readBody(_ request: Request, schema: JSONSchema, deadline: Deadline?) async throws -> JSONValue {
        try Self.decode(try await readJSONBytes(request, deadline: deadline), schema: schema)
    }

    /// The body's bytes, after checking that it is JSON (415 otherwise), at most the service's limit.
    private func readJSONBytes(_ request: Request, deadline: Deadline?) async throws -> ByteBuffer {
        guard Self.isJSON(request.headers[.contentType]) else {
            throw ServiceProblem(
                .unsupportedMediaType,
                detail: "send the body as JSON with `Content-Type: application/json`"
                    + (request.headers[.contentType].map { " (found \($0.prefix(64)))" } ?? " (found none)"))
        }
        return try await collect(request, limit: max(0, state.limits.maxBodyBytes), deadline: deadline)
    }

    /// `buffer` parsed as JSON (400 `malformed-json` otherwise) and checked against `schema` (422).
    private static func decode(_ buffer: ByteBuffer, schema: JSONSchema) throws(ServiceProblem) -> JSONValue {
        let json: JSONValue
        do {
            json = try JSONValue.parse(Array(buffer.readableBytesView))
        } catch {
            throw ServiceProblem(.malformedJSON, detail: "the body is not valid JSON: \(error.message)")
        }
        do {
            return try SchemaValidator().validated(json, against: schema)
        } catch {
            throw ServiceProblem.invalid(error)
        }
    }

    /// The body as it came, at most `limit` bytes (and the service's own limit), whatever its media type.
    private func readRawBody(_ request: Request, limit: Int, deadline: Deadline?) async throws -> [UInt8] {
        let buffer = try await collect(
            request, limit: max(0, min(limit, state.limits.maxBodyBytes)), deadline: deadline)
        return Array(buffer.readableBytesView)
    }

    /// The body, at most `limit` bytes. A declared oversize body is refused before any of it is read
    /// (``ConnectionGuard`` stopped reading the connection when the head arrived); a body without a
    /// length (chunked) is cut off by `collect(upTo:)` as soon as it passes the limit.
    private func collect(_ request: Request, limit: Int, deadline: Deadline?) async throws -> ByteBuffer {
        if ContentLength.exceeds(limit, in: request.headers) {
            throw ServiceProblem.bodyTooLarge(limit: limit)
        }
        do {
            return try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw ServiceProblem.bodyTooLarge(limit: limit)
        } catch let error as ChunkedBodyTooLargeError {
            // The chunk sizes announced more than the connection's limit (ConnectionGuard).
            throw ServiceProblem.bodyTooLarge(limit: min(limit, error.limit))
        } catch _ where deadline?.hasExpired == true {
            throw ServiceProblem.bodyTimeout(seconds: Self.format(timeoutSeconds))
        } catch is BodyTimeoutError {
            throw ServiceProblem.bodyTimeout(seconds: Self.format(timeoutSeconds))
        } catch let error as IOError {
            throw ServiceProblem.brokenConnection(error)
        } catch let error as ChannelError {
            throw ServiceProblem.brokenConnection(error)
        }
    }

    /// `application/json`, with or without parameters such as `charset=utf-8`, in any case.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let bytes = Array(contentType.utf8)
        let end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        return ASCIIText.equalIgnoringCase(ASCIIText.trimmingBlanks(bytes[..<end]), "application/json")
    }

    /// Runs `work` in its own task and cancels it after the request timeout; the task also turns the answer
    /// into bytes. What the cancellation ends (a sleep, a body read, a campaign check) becomes a
    /// `timeout` problem; work that finishes anyway is answered, and its own problems and errors
    /// stand.
    ///
    /// Operations that run long run on the worker threads, and their time starts at once: waiting
    /// for a worker counts. For the others it starts with the work, so that time spent waiting for a
    /// thread (a busy machine, tests run in parallel) does not count against them.
    private func withTimeout(
        _ work: @escaping @Sendable (Deadline) async throws -> OperationResponse
    ) async throws -> Response {
        let seconds = timeoutSeconds
        let deadline = Deadline(seconds: seconds)
        let run: @Sendable () async throws -> Response = {
            defer { deadline.stop() }
            return Self.response(try await work(deadline))
        }
        let task: Task<Response, any Error>
        if operation.runsLong {
            deadline.start()
            task = Task(executorPreference: WorkerExecutor.shared) { try await run() }
        } else {
            task = Task {
                deadline.start()
                return try await run()
            }
        }
        deadline.watch(task)
        do {
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch is CancellationError where deadline.hasExpired {
            throw ServiceProblem(
                .timeout,
                detail: "the request (body and operation) took longer than \(Self.format(seconds)) s and was stopped")
        }
    }

    /// The request timeout, clamped to 0...86 400 s (NaN as 0) so that a limit set in code cannot
    /// trap a conversion (``ServiceRunner`` clamps the connection's body timer the same way).
    private var timeoutSeconds: Double {
        let seconds = state.limits.requestTimeoutSeconds
        return seconds.isNaN ? 0 : min(max(seconds, 0), 86_400)
    }

    private static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
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
        case .bytes(let raw, let mediaType):
            headers[.contentType] = mediaType
            bytes = raw
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
