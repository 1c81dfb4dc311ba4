import Metrics
import Prometheus

/// The service's metrics, recorded through swift-metrics into its own Prometheus registry (so
/// several services in one process, as in tests, keep separate counts):
///
/// - `offerkit_signatures_total{type}`: signatures and tokens made, by type;
/// - `offerkit_problems_total{type}`: problem responses, by problem type;
/// - `offerkit_http_requests_total{operation,status}`: responses, by operation (its `operationId`,
///   or `unmatched` when no route matched) and status;
/// - `offerkit_http_request_duration_seconds{operation}`: latency histogram.
public struct ServiceMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
            .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        ]
        self.factory = factory
    }

    /// Counts one signature or token of `type` (such as `promotional-offer`).
    public func signed(_ type: String) {
        Counter(label: "offerkit_signatures_total", dimensions: [("type", type)], factory: factory).increment()
    }

    /// Counts one problem response.
    public func problem(_ type: ProblemType) {
        Counter(label: "offerkit_problems_total", dimensions: [("type", type.slug)], factory: factory).increment()
    }

    /// Records one finished request.
    public func request(operation: String, status: Int, nanoseconds: Int64) {
        Counter(
            label: "offerkit_http_requests_total", dimensions: [("operation", operation), ("status", String(status))],
            factory: factory
        ).increment()
        Metrics.Timer(
            label: "offerkit_http_request_duration_seconds", dimensions: [("operation", operation)], factory: factory
        ).recordNanoseconds(nanoseconds)
    }

    /// The Prometheus text exposition of every metric.
    public func exposition() -> String { registry.emitToString() }
}
