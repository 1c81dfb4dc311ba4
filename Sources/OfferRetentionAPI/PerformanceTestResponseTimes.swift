import OfferJSON

/// The response times a performance test measured, in milliseconds (`PerformanceTestResponseTimes`).
public struct PerformanceTestResponseTimes: Sendable, Equatable {
    public var average: Int64
    public var p50: Int64
    public var p90: Int64
    public var p95: Int64
    public var p99: Int64

    public init(average: Int64, p50: Int64, p90: Int64, p95: Int64, p99: Int64) {
        self.average = average
        self.p50 = p50
        self.p90 = p90
        self.p95 = p95
        self.p99 = p99
    }

    static let names = ["average", "p50", "p90", "p95", "p99"]

    init(_ object: AnswerObject) throws(RetentionAnswerError) {
        var values: [Int64] = []
        for name in Self.names { values.append(try object.requiredInteger(name)) }
        self.init(average: values[0], p50: values[1], p90: values[2], p95: values[3], p99: values[4])
    }

    /// Apple's JSON shape.
    package var json: JSONValue {
        .object(zip(Self.names, [average, p50, p90, p95, p99]).map { ($0, JSONValue.integer($1)) })
    }
}
