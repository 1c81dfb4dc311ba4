import OfferJSON

/// Initiate Performance Test's answer (`POST /inApps/v1/messaging/performanceTest`): the test's
/// configuration and the `requestId` its results are asked for with.
public struct PerformanceTestResponse: Sendable, Equatable {
    public var config: PerformanceTestConfig
    /// A UUID.
    public var requestId: String

    public init(config: PerformanceTestConfig, requestId: String) {
        self.config = config
        self.requestId = requestId
    }

    public static func parse(_ bytes: [UInt8]) throws(RetentionAnswerError) -> PerformanceTestResponse {
        let answer = try AnswerObject.parse(bytes)
        return PerformanceTestResponse(
            config: try PerformanceTestConfig(try answer.requiredObject("config")),
            requestId: try answer.requiredString("requestId", maximum: 64))
    }

    /// Apple's JSON shape.
    package var json: JSONValue { .object([("config", config.json), ("requestId", .string(requestId))]) }
}
