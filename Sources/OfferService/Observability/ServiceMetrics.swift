import Metrics
import NIOConcurrencyHelpers
import OfferRetentionEndpoint
import OfferSigning
import Prometheus

/// The service's metrics, recorded through swift-metrics into its own Prometheus registry (so
/// several services in one process, as in tests, keep separate counts):
///
/// - `offerkit_signatures_total{type}`: signatures and tokens made, by type;
/// - `offerkit_problems_total{type}`: problem responses, by problem type;
/// - `offerkit_http_requests_total{operation,status}`: responses, by operation (its `operationId`,
///   or `unmatched` when no route matched) and status;
/// - `offerkit_http_request_duration_seconds{operation}`: latency histogram;
/// - `offerkit_retention_decisions_total{kind}`: Get Retention Message answers, by what they chose
///   (`message`, `alternateProduct`, `promotionalOffer`, `advancedCommerceInfo`, `default`, `hookFailed`);
/// - `offerkit_retention_rejections_total{reason}`: its refusals (401), by reason (`RetentionRejection`);
/// - `offerkit_retention_duration_seconds`: its latency histogram, from the body read to the answer.
public struct ServiceMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    /// The metrics already made, by label and dimensions: each is created once per label set.
    private let made = Made()
    /// The metrics of each request's operation and status, and of each signing operation, found
    /// without building their label sets again (every request records them).
    private let perRequest = NIOLockedValueBox([RequestKey: (Metrics.Counter, Metrics.Timer)]())
    private let perSignature = NIOLockedValueBox([SigningOperation: Metrics.Counter]())

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

    /// Counts one signature or token of `operation` (type `promotional-offer`, …).
    public func signed(_ operation: SigningOperation) {
        let counter = perSignature.withLockedValue { table in
            if let counter = table[operation] { return counter }
            let counter = self.counter("offerkit_signatures_total", [("type", operation.rawValue)])
            table[operation] = counter
            return counter
        }
        counter.increment()
    }

    /// Counts one problem response.
    public func problem(_ type: ProblemType) {
        counter("offerkit_problems_total", [("type", type.slug)]).increment()
    }

    /// Records one finished request.
    public func request(operation: String, status: Int, nanoseconds: Int64) {
        let key = RequestKey(operation: operation, status: status)
        let (counter, timer) = perRequest.withLockedValue { table in
            if let metrics = table[key] { return metrics }
            let metrics = (
                self.counter("offerkit_http_requests_total", [("operation", operation), ("status", String(status))]),
                self.timer("offerkit_http_request_duration_seconds", [("operation", operation)])
            )
            table[key] = metrics
            return metrics
        }
        counter.increment()
        timer.recordNanoseconds(nanoseconds)
    }

    /// A request's operation and status.
    struct RequestKey: Hashable {
        var operation: String
        var status: Int
    }

    /// Counts one answer of the Get Retention Message endpoint and records its duration.
    public func retentionAnswered(_ kind: RetentionAnswerKind, nanoseconds: Int64) {
        counter("offerkit_retention_decisions_total", [("kind", kind.rawValue)]).increment()
        timer("offerkit_retention_duration_seconds", []).recordNanoseconds(nanoseconds)
    }

    /// Counts one refusal of the Get Retention Message endpoint and records its duration.
    public func retentionRejected(_ reason: RetentionRejection, nanoseconds: Int64) {
        counter("offerkit_retention_rejections_total", [("reason", reason.rawValue)]).increment()
        timer("offerkit_retention_duration_seconds", []).recordNanoseconds(nanoseconds)
    }

    /// The Prometheus text exposition of every metric.
    public func exposition() -> String { registry.emitToString() }

    /// The counter `label` with `dimensions`, made on first use.
    func counter(_ label: String, _ dimensions: [(String, String)]) -> Metrics.Counter {
        made.metric(MetricKey(label: label, dimensions: dimensions), in: \.counters) {
            Metrics.Counter(label: label, dimensions: dimensions, factory: factory)
        }
    }

    /// The timer `label` with `dimensions`, made on first use.
    func timer(_ label: String, _ dimensions: [(String, String)]) -> Metrics.Timer {
        made.metric(MetricKey(label: label, dimensions: dimensions), in: \.timers) {
            Metrics.Timer(label: label, dimensions: dimensions, factory: factory)
        }
    }

    /// A metric's label and dimensions.
    struct MetricKey: Hashable {
        var label: String
        var dimensions: [String]

        init(label: String, dimensions: [(String, String)]) {
            self.label = label
            self.dimensions = dimensions.flatMap { [$0.0, $0.1] }
        }
    }

    /// The counters and timers made so far, behind a lock (requests record from many threads).
    /// The label sets are few (operations × status codes, problem types, signing operations), so
    /// the tables stay small.
    final class Made: Sendable {
        struct Tables {
            var counters: [MetricKey: Metrics.Counter] = [:]
            var timers: [MetricKey: Metrics.Timer] = [:]
        }

        private let tables = NIOLockedValueBox(Tables())

        /// How many metrics have been made, for tests.
        var count: Int { tables.withLockedValue { $0.counters.count + $0.timers.count } }

        func metric<Metric>(
            _ key: MetricKey, in table: WritableKeyPath<Tables, [MetricKey: Metric]>, make: () -> Metric
        ) -> Metric {
            tables.withLockedValue { tables in
                if let metric = tables[keyPath: table][key] { return metric }
                let metric = make()
                tables[keyPath: table][key] = metric
                return metric
            }
        }
    }

    /// How many counters and timers have been made (each once per label set), for tests.
    var madeCount: Int { made.count }
}
