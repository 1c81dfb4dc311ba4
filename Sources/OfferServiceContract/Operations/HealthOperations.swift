import OfferSigning

extension OperationContract {
    /// `GET /healthz`: the process is up, and which OfferKit version it runs.
    package static let health = OperationContract(
        id: "health", method: .get, path: "/healthz", tag: "Service", summary: "Liveness",
        description: """
            Answers 200 while the process runs, with the OfferKit version (the same as `offerkit --version` and the \
            `Server` header of every response). Needs no API key.
            """,
        scope: nil, requestSchema: nil,
        responseSchema: JSONSchema.object([
            .init("status", .enumeration(["ok"])),
            .init(
                "version",
                .string(
                    StringRules(minLength: 1), description: "The OfferKit version the service runs.",
                    example: OfferKitVersion.current)),
        ]).named("Health"), problems: []
    ).answeringFromMemory()

    /// `GET /readyz`: the service takes requests (503 once graceful shutdown begins).
    package static let readiness = OperationContract(
        id: "readiness", method: .get, path: "/readyz", tag: "Service", summary: "Readiness",
        description: """
            Answers 200 when every configured key is loaded and the service takes requests, 503 once graceful \
            shutdown has begun. Needs no API key.
            """,
        scope: nil, requestSchema: nil,
        responseSchema: JSONSchema.object([
            .init("status", .enumeration(["ready"])),
            .init("apps", .integer(minimum: 0, description: "How many apps are configured.")),
        ]).named("Readiness"), problems: [.unavailable]
    ).answeringFromMemory()

    /// `GET /metrics`: Prometheus text.
    package static let metrics = OperationContract(
        id: "metrics", method: .get, path: "/metrics", tag: "Service", summary: "Metrics (Prometheus text format)",
        description: """
            Signatures by type, problems by type, requests by operation and status, and a latency histogram, in the \
            Prometheus text exposition format 0.0.4. Needs an API key with the `metrics` scope for every app: the \
            counts cover every app, so a key limited to some bundle IDs gets 403 `forbidden`.
            """,
        scope: .metrics, requestSchema: nil, responseSchema: JSONSchema.string(description: "Prometheus text."),
        responseMediaType: "text/plain; version=0.0.4; charset=utf-8", problems: []
    ).answeringFromMemory().limitingBundles(to: .everyApp)
}
