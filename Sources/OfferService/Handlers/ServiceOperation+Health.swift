import OfferServiceContract
import OfferSigning

extension ServiceOperation {
    /// `GET /healthz`: the process is up, and which OfferKit version it runs.
    static let health = ServiceOperation(.health) { _ in
        OperationResponse(
            body: .object([("status", .string("ok")), ("version", .string(OfferService.version))]), noStore: true)
    }

    /// `GET /readyz`: the service takes requests (503 once graceful shutdown begins).
    static let readiness = ServiceOperation(.readiness) { request in
        if request.state.isShuttingDown {
            throw ServiceProblem(.unavailable, detail: "the service is shutting down", headers: [("Retry-After", "1")])
        }
        return OperationResponse(
            body: .object([("status", .string("ready")), ("apps", .integer(request.state.apps.bundleIds.count))]))
    }

    /// `GET /metrics`: Prometheus text.
    static let metrics = ServiceOperation(.metrics) { request in
        try request.authorizeEveryApp(because: "the metrics count the requests of every app", action: "read them")
        return OperationResponse(
            text: request.state.metrics.exposition(), mediaType: "text/plain; version=0.0.4; charset=utf-8")
    }
}
