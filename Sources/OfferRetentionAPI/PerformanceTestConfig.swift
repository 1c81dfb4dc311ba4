import OfferJSON

/// How Apple runs a performance test (`PerformanceTestConfig`): the concurrency, the number of
/// requests and the duration, and what passing takes (answers within `responseTimeThreshold`
/// milliseconds, at least `successRateThreshold` percent of them successful).
public struct PerformanceTestConfig: Sendable, Equatable {
    public var maxConcurrentRequests: Int64
    public var totalRequests: Int64
    /// Milliseconds.
    public var totalDuration: Int64
    /// Milliseconds.
    public var responseTimeThreshold: Int64
    /// Percent.
    public var successRateThreshold: Int64

    public init(
        maxConcurrentRequests: Int64, totalRequests: Int64, totalDuration: Int64, responseTimeThreshold: Int64,
        successRateThreshold: Int64
    ) {
        self.maxConcurrentRequests = maxConcurrentRequests
        self.totalRequests = totalRequests
        self.totalDuration = totalDuration
        self.responseTimeThreshold = responseTimeThreshold
        self.successRateThreshold = successRateThreshold
    }

    static let names = [
        "maxConcurrentRequests", "totalRequests", "totalDuration", "responseTimeThreshold", "successRateThreshold",
    ]

    init(_ object: AnswerObject) throws(RetentionAnswerError) {
        var values: [Int64] = []
        for name in Self.names {
            let value = try object.requiredInteger(name)
            guard value >= 0 else {
                throw .unexpected(path: object.memberPath(name), expected: "a count of 0 or more (found \(value))")
            }
            values.append(value)
        }
        self.init(
            maxConcurrentRequests: values[0], totalRequests: values[1], totalDuration: values[2],
            responseTimeThreshold: values[3], successRateThreshold: values[4])
    }

    /// Apple's JSON shape.
    package var json: JSONValue {
        .object(
            zip(
                Self.names,
                [maxConcurrentRequests, totalRequests, totalDuration, responseTimeThreshold, successRateThreshold]
            ).map { ($0, JSONValue.integer($1)) })
    }
}
