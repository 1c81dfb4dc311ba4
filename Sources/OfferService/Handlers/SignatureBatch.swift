import Logging
import NIOCore
import OfferJSON
import OfferServiceContract
import OfferSigning

/// Signs the items of a `POST /v1/signatures/batch` request: each one through the operation of its
/// type, as if it had been sent alone, in order, on every core.
///
/// An item is checked as its own endpoint checks a request: its `type` and `id` first, then the API
/// key's scope for the type, then its members against that endpoint's schema, then the endpoint's
/// handler (bundle ID, signing). Whatever refuses it is that item's problem, the one its endpoint
/// would have answered; the other items go on.
struct SignatureBatch: Sendable {
    let request: OperationRequest

    /// Below this many items per core, a batch is signed on the request's own thread: the hop to
    /// other cores would cost more than it saves.
    static let minimumChunk = 4

    /// The answer to a batch whose envelope the schema has accepted.
    /// - Throws: a 422 `invalid-field` naming `requests` for more items than the rate limit's burst
    ///   (such a batch could never pass), a 429 `rate-limited` when the key's bucket holds fewer
    ///   tokens than there are items, and `CancellationError` when the request timed out.
    static func answer(_ request: OperationRequest) async throws -> OperationResponse {
        guard case .array(let items)? = request.body?["requests"] else {
            throw ServiceProblem(
                .internalError,
                detail: "the service's schema and its reading of the body member requests disagree; please report it")
        }
        try takeTokens(items.count, request)
        let results = try await SignatureBatch(request: request).sign(items)
        var failed = 0
        var json: [JSONValue] = []
        json.reserveCapacity(results.count)
        for (index, result) in results.enumerated() {
            if case .failed(let problem) = result.outcome {
                failed += 1
                request.state.metrics.problem(problem.type)
            }
            json.append(result.json(index: index, requestId: request.requestId))
        }
        request.annotate(["batch.items": "\(items.count)", "batch.failed": "\(failed)"])
        return OperationResponse(
            body: .object([
                ("results", .array(json)), ("succeeded", .integer(items.count - failed)), ("failed", .integer(failed)),
            ]))
    }

    /// Takes one rate-limit token per item from the key's bucket (the service's, without
    /// authentication), all or none.
    private static func takeTokens(_ count: Int, _ request: OperationRequest) throws(ServiceProblem) {
        let limiter = request.state.rateLimiter
        let name = request.apiKey?.name ?? "(no authentication)"
        guard Double(count) <= limiter.burst else {
            throw ServiceProblem(
                .invalidField,
                detail: "requests: a batch of \(count) items takes \(count) rate-limit tokens, more than API key "
                    + "'\(name)' can ever hold (its burst is \(ServiceProblem.formatted(limiter.burst))); send at most "
                    + "\(Int(limiter.burst)) items per batch",
                field: "requests")
        }
        if let wait = limiter.acquire(count, for: name) {
            throw ServiceProblem.rateLimited(name: name, limiter: limiter, wait: wait, items: count)
        }
    }

    /// Every item's result, in order: small batches on this thread, larger ones in one chunk per
    /// core: on the event loops (one each), or, for a batch whose body is large
    /// (``WorkerExecutor/carriesRequest``), on the worker threads, so that its seconds of signing
    /// keep no loop from its other connections.
    func sign(_ items: [JSONValue]) async throws -> [BatchItemResult] {
        var executors: [any TaskExecutor] = EventLoopExecutor.all
        if WorkerExecutor.carriesRequest {
            executors = Array(repeating: WorkerExecutor.shared, count: System.coreCount)
        }
        let chunks = min(executors.isEmpty ? System.coreCount : executors.count, items.count / Self.minimumChunk)
        guard chunks > 1 else { return try await sign(items[...]) }
        return try await withThrowingTaskGroup(of: (Int, [BatchItemResult]).self) { group in
            for chunk in 0..<chunks {
                let range = (items.count * chunk / chunks)..<(items.count * (chunk + 1) / chunks)
                let work: @Sendable () async throws -> (Int, [BatchItemResult]) = {
                    (chunk, try await sign(items[range]))
                }
                if executors.isEmpty {
                    group.addTask(operation: work)
                } else {
                    group.addTask(executorPreference: executors[chunk], operation: work)
                }
            }
            var parts = [[BatchItemResult]](repeating: [], count: chunks)
            for try await (chunk, results) in group { parts[chunk] = results }
            return parts.flatMap { $0 }
        }
    }

    /// The results of `items`, one after the other; stops when the request is cancelled (its
    /// timeout).
    private func sign(_ items: ArraySlice<JSONValue>) async throws -> [BatchItemResult] {
        var results: [BatchItemResult] = []
        results.reserveCapacity(items.count)
        for item in items {
            try Task.checkCancellation()
            results.append(try await sign(item))
        }
        return results
    }

    /// `id` as it is echoed when ``BatchSchemas/id`` accepts it (an integer in its plain form), else
    /// `nil`.
    static func validId(_ id: JSONValue) -> JSONValue? {
        switch id {
        case .string(let text) where text.utf8.count <= 256: id
        case .number(let text) where Int64(text).map(String.init) == text: id
        default: try? SchemaValidator().validated(id, against: BatchSchemas.id)
        }
    }

    /// One item's result: what its type's operation answers for it, or the problem that refused it.
    func sign(_ item: JSONValue) async throws -> BatchItemResult {
        // `type` and `id` are echoed as far as they are valid, whatever else fails.
        var type: SigningOperation?
        var id: JSONValue?
        var headerIsValid = false
        if case .object(let members) = item {
            var typeMember: JSONValue?
            var idMember: JSONValue?
            for member in members where member.key == "type" || member.key == "id" {
                if member.key == "type" { typeMember = member.value } else { idMember = member.value }
            }
            if case .string(let name)? = typeMember { type = SigningOperation(anyCase: name) }
            id = idMember.flatMap(Self.validId)
            headerIsValid = type != nil && (idMember == nil) == (id == nil)
        }
        let refused = { (problem: ServiceProblem) in BatchItemResult(type: type, id: id, outcome: .failed(problem)) }
        guard headerIsValid, let type, case .object(let members) = item else {
            // The schema says what is wrong, in the words it uses for every other field.
            do {
                try SchemaValidator().validate(item, against: BatchSchemas.itemHeader)
            } catch {
                return refused(.invalid(error))
            }
            return refused(
                ServiceProblem(.internalError, detail: "the batch item's type was not read; please report it"))
        }
        if let key = request.apiKey, !key.allows(.signing(type)) {
            return refused(.missingScope(key: key, scope: .signing(type)))
        }
        guard let operation = ServiceOperation.signingByType[type] else {
            return refused(
                ServiceProblem(
                    .internalError, detail: "no operation signs batch items of type \(type.rawValue); please report it")
            )
        }
        let body: JSONValue
        do {
            body = try SchemaValidator().validated(
                .object(members.filter { $0.key != "type" && $0.key != "id" }),
                against: operation.requestSchema ?? JSONSchema(.any))
        } catch {
            return refused(.invalid(error))
        }
        do {
            let response = try await operation.handler(request.replacingBody(body))
            guard case .json(.object(let fields)) = response.body else {
                return refused(
                    ServiceProblem(.internalError, detail: "\(operation.id) answered no JSON object; please report it"))
            }
            return BatchItemResult(type: type, id: id, outcome: .signed(status: response.status, fields: fields))
        } catch let problem as ServiceProblem {
            return refused(problem)
        } catch let error as RequestValidationError {
            return refused(.invalid(error))
        } catch let error as CancellationError {
            throw error
        } catch {
            // As for a single request: only the error's type goes to the log, nothing to the client.
            request.logger.error(
                "internal error", metadata: ["error.type": "\(String(reflecting: Swift.type(of: error)))"])
            return refused(
                ServiceProblem(
                    .internalError,
                    detail: "the service failed to sign this item; the log has the details under request id "
                        + request.requestId))
        }
    }
}
