import OfferJSON

/// Get Performance Test Results' answer (`GET /inApps/v1/messaging/performanceTest/result/{requestId}`).
///
/// Apple documents every member as required; OfferKit requires `result` only and reads the others
/// when present, so that an answer of a test still running is read whatever it leaves out.
public struct PerformanceTestResultResponse: Sendable, Equatable {
    /// `PENDING`, `PASS` or `FAIL` (`PerformanceTestStatus`).
    public enum Status: Sendable, Equatable {
        case pending
        case pass
        case fail
        /// A value Apple does not document, as sent.
        case other(String)

        init(_ text: String) {
            switch text {
            case "PENDING": self = .pending
            case "PASS": self = .pass
            case "FAIL": self = .fail
            default: self = .other(text)
            }
        }

        /// Apple's spelling.
        public var rawValue: String {
            switch self {
            case .pending: "PENDING"
            case .pass: "PASS"
            case .fail: "FAIL"
            case .other(let text): text
            }
        }
    }

    public var result: Status
    public var config: PerformanceTestConfig?
    /// The URL the test called.
    public var target: String?
    /// Percent.
    public var successRate: Int64?
    /// Requests not answered yet.
    public var numPending: Int64?
    public var responseTimes: PerformanceTestResponseTimes?
    /// Failed requests by Apple's `sendAttemptResult` (`TIMED_OUT`, `UNSUCCESSFUL_HTTP_RESPONSE_CODE`, …),
    /// in Apple's order.
    public var failures: [(reason: String, count: Int64)]

    public init(
        result: Status, config: PerformanceTestConfig? = nil, target: String? = nil, successRate: Int64? = nil,
        numPending: Int64? = nil, responseTimes: PerformanceTestResponseTimes? = nil,
        failures: [(reason: String, count: Int64)] = []
    ) {
        self.result = result
        self.config = config
        self.target = target
        self.successRate = successRate
        self.numPending = numPending
        self.responseTimes = responseTimes
        self.failures = failures
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.result == rhs.result && lhs.config == rhs.config && lhs.target == rhs.target
            && lhs.successRate == rhs.successRate && lhs.numPending == rhs.numPending
            && lhs.responseTimes == rhs.responseTimes && lhs.failures.count == rhs.failures.count
            && zip(lhs.failures, rhs.failures).allSatisfy { $0.reason == $1.reason && $0.count == $1.count }
    }

    public static func parse(_ bytes: [UInt8]) throws(RetentionAnswerError) -> PerformanceTestResultResponse {
        let answer = try AnswerObject.parse(bytes)
        var response = PerformanceTestResultResponse(result: Status(try answer.requiredString("result", maximum: 64)))
        if let config = try answer.object("config") { response.config = try PerformanceTestConfig(config) }
        response.target = try answer.string("target", maximum: 2048)
        response.successRate = try answer.integer("successRate")
        response.numPending = try answer.integer("numPending")
        if let times = try answer.object("responseTimes") {
            response.responseTimes = try PerformanceTestResponseTimes(times)
        }
        if let failures = try answer.object("failures") {
            guard failures.members.count <= 1_000 else {
                throw .unexpected(path: "failures", expected: "at most 1000 reasons (found \(failures.members.count))")
            }
            for member in failures.members {
                let path = failures.memberPath(member.key)
                _ = try AnswerObject.text(.string(member.key), path: path, maximum: 128)
                response.failures.append((member.key, try AnswerObject.integer(member.value, path: path)))
            }
        }
        return response
    }

    /// Apple's JSON shape (the members Apple sent).
    package var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let config { members.append(("config", config.json)) }
        if let target { members.append(("target", .string(target))) }
        members.append(("result", .string(result.rawValue)))
        if let successRate { members.append(("successRate", .integer(successRate))) }
        if let numPending { members.append(("numPending", .integer(numPending))) }
        if let responseTimes { members.append(("responseTimes", responseTimes.json)) }
        members.append(("failures", .object(failures.map { ($0.reason, JSONValue.integer($0.count)) })))
        return .object(members)
    }
}
