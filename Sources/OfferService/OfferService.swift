import Foundation
import HTTPTypes
import Hummingbird
import Logging
import OfferCodes
import OfferLedger
import OfferRetentionEndpoint
// Re-exported: the service's public API speaks in the contract's types (an operation's
// `OperationContract`, `JSONSchema`, `ProblemType`, `OperationScope`, `ServiceLimits`,
// `OpenAPIDocument`), which were this module's own before the contract became a module of its
// own; `import OfferService` keeps giving them, so code written against it still compiles.
@_exported import OfferServiceContract
import OfferSigning

/// The OfferKit signing service: JSON endpoints for every signing operation, the two API
/// tokens and offer-code campaigns, with API keys, limits, problems, logs and metrics.
///
/// ```swift
/// let configuration = try ServiceConfiguration.load(path: "service.json")
/// let service = try OfferService(configuration: configuration)
/// let app = Application(router: service.makeRouter(), configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
/// try await app.runService()
/// ```
public struct OfferService: Sendable {
    public let state: ServiceState

    /// Loads every app's key and checks the authentication settings.
    ///
    /// - Parameters:
    ///   - configuration: the apps, their keys, the API keys, limits and the optional sections.
    ///   - ledger: the code ledger that the configuration's ``ServiceConfiguration/ledger``
    ///     names, opened by the caller (`CodeLedger.sqlite(path:access:)`, or
    ///     `CodeLedger.withPostgres` of `OfferLedgerPostgres`, around the service's run); with one,
    ///     the service has `POST /v1/codes/claim` and `GET /v1/campaigns/{name}/status`.
    ///   - authentication: whether requests need an API key (``Authentication/required``, the default).
    ///   - metrics: where the service counts requests, signatures and refusals (`GET /metrics`).
    ///   - clock: the time tokens and signatures are issued at.
    ///   - nonces: where the signatures' nonces come from (random UUIDs by default).
    ///   - retentionDecider: with a `retention` section, what decides the Get Retention
    ///     Message endpoint's answers instead of its rules (`RetentionDecider`: the hook for a choice
    ///     that needs your own data); the service verifies each request before and signs the offer after
    ///     (with `ledger`, only a promotional offer the ledger knows for its product: another is answered `{}`).
    ///   - retentionDeciderTimeBudget: how long `retentionDecider` may take before the
    ///     request is answered `{}` (more than 0, at most 60 s; Apple waits about 700 ms in all).
    /// - Throws: ``ConfigurationError`` when a key or root certificate cannot be loaded,
    ///   authentication is required and there is no API key, or the configuration names a ledger
    ///   and none is given.
    public init(
        configuration: ServiceConfiguration, ledger: CodeLedger? = nil,
        authentication: Authentication = .required, metrics: ServiceMetrics = ServiceMetrics(),
        clock: SigningClock = .system, nonces: NonceGenerator = .random,
        retentionDecider: (any RetentionDecider)? = nil,
        retentionDeciderTimeBudget: Duration = RetentionSettings.defaultDeciderTimeBudget
    ) throws(ConfigurationError) {
        guard RetentionSettings.acceptsDeciderTimeBudget(retentionDeciderTimeBudget) else {
            throw .invalidField(
                source: "OfferService", field: "retentionDeciderTimeBudget",
                expected: "more than 0 and at most 60 seconds, found \(retentionDeciderTimeBudget)")
        }
        if authentication == .required, configuration.apiKeys.isEmpty { throw .noAPIKeys }
        if let location = configuration.ledger, ledger == nil { throw .ledgerNotOpened(location: location.description) }
        let apps = try AppRegistry(configuration: configuration, clock: clock, nonces: nonces)
        let serviceLedger = ledger.map { ServiceLedger($0) }
        var retention: RetentionEndpoint?
        if let section = configuration.retention {
            // With a ledger, every promotional offer a decision names is checked before it is signed.
            retention = try RetentionEndpoint(
                configuration: section, apps: configuration.apps, registry: apps, decider: retentionDecider,
                deciderTimeBudget: retentionDeciderTimeBudget, clock: clock,
                offerCheck: serviceLedger?.retentionOfferCheck(logger: Logger(label: "offerkit.retention")))
        }
        self.init(
            state: ServiceState(
                apps: apps, apiKeys: APIKeyStore(keys: configuration.apiKeys), limits: configuration.limits,
                authentication: authentication, metrics: metrics, clock: clock, ledger: serviceLedger,
                retention: retention))
    }

    /// A service over prepared state (tests use it to inject a rate limiter or a clock).
    public init(state: ServiceState) { self.state = state }

    /// Every operation of the service, in the order of the OpenAPI document, including those that
    /// only a service with a ledger has (`ServiceOperation.requiresLedger`).
    public static var operations: [ServiceOperation] { ServiceOperation.all }

    /// The operations this service routes: ``operations``, without those that need a ledger or a
    /// Get Retention Message endpoint when it has none, the endpoint at its configured path.
    public var routedOperations: [ServiceOperation] {
        Self.operations.compactMap { operation in
            if operation.requiresLedger, state.ledger == nil { return nil }
            if operation.requiresRetention {
                return state.retention.map { ServiceOperation.getRetentionMessage(path: $0.path) }
            }
            return operation
        }
    }

    /// The router: every operation of ``routedOperations`` behind the request-id, logging,
    /// metrics and problem middlewares.
    public func makeRouter() -> Router<ServiceRequestContext> {
        makeRouter(operations: routedOperations)
    }

    /// The router for `operations` (tests route operations of their own through the same
    /// middlewares and responder). `connectionTimesBodies`: the connection enforces the request
    /// timeout on bodies (``ConnectionGuard``, as ``ServiceRunner`` sets it up), so operations that
    /// only compute (``ServiceOperation/computesOnly``) run in the request's own task.
    func makeRouter(
        operations: [ServiceOperation], connectionTimesBodies: Bool = false
    ) -> Router<ServiceRequestContext> {
        // HEAD answers every GET endpoint, as RFC 9110 §9.1 asks (load balancers probe with it).
        let router = Router(context: ServiceRequestContext.self, options: .autoGenerateHeadEndpoints)
        var methodsByPath: [String: [HTTPRequest.Method]] = [:]
        for operation in operations {
            methodsByPath[operation.path, default: []].append(operation.method)
            if operation.method == .get { methodsByPath[operation.path, default: []].append(.head) }
        }
        router.add(middleware: RequestObservationMiddleware(metrics: state.metrics))
        router.add(middleware: ProblemMiddleware(methodsByPath: methodsByPath, metrics: state.metrics))
        for operation in operations {
            let responder = OperationResponder(
                operation: operation, state: state,
                runsInline: operation.answersFromMemory || (connectionTimesBodies && operation.computesOnly))
            router.on(RouterPath(operation.path), method: operation.method) { request, context in
                try await responder.respond(to: request, context: context)
            }
        }
        return router
    }

    /// Whether `host` is a loopback address, where the service may run without authentication:
    /// `localhost`, an IPv4 address in 127.0.0.0/8, `::1` (with or without brackets) or an
    /// IPv4-mapped IPv6 address in 127.0.0.0/8. Host names are not resolved, so a name such as
    /// `127.example.com` is not loopback.
    public static func isLoopback(_ host: String) -> Bool {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" { return true }
        var ipv4 = in_addr()
        if inet_pton(AF_INET, host, &ipv4) == 1 {
            return withUnsafeBytes(of: &ipv4) { $0[0] == 127 }
        }
        var ipv6 = in6_addr()
        guard inet_pton(AF_INET6, host, &ipv6) == 1 else { return false }
        return withUnsafeBytes(of: &ipv6) { bytes in
            let loopback = bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1
            let mappedIPv4 = bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
            return loopback || (mappedIPv4 && bytes[12] == 127)
        }
    }
}
