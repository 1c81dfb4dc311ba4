import Foundation
import InteropSupport
import OfferRetentionAPI
import Testing

/// How OfferKit reads Apple's answers: the documented members with their types, unknown members
/// ignored, bounds on everything; error bodies with Apple's codes; Retry-After as Apple documents it.
@Suite("Retention Messaging answers")
struct AnswerTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func lists() throws {
        let messages = try GetMessageListResponse.parse(
            Self.bytes(
                #"{"messageIdentifiers":[{"messageIdentifier":"a","messageState":"APPROVED","new":1}],"more":true}"#))
        #expect(messages.messageIdentifiers == [.init(messageIdentifier: "a", messageState: "APPROVED")])
        #expect(try GetMessageListResponse.parse(Self.bytes("{}")).messageIdentifiers.isEmpty)
        let images = try GetImageListResponse.parse(
            Self.bytes(
                #"{"imageIdentifiers":[{"imageIdentifier":"a","imageState":"PENDING","imageSize":"BULLET_POINT"},{"imageIdentifier":"b","imageState":"REJECTED"}]}"#
            ))
        #expect(images.imageIdentifiers.map(\.imageSize) == ["BULLET_POINT", nil])
        for text in [
            #"{"messageIdentifiers":{}}"#, #"{"messageIdentifiers":[{"messageIdentifier":"a"}]}"#,
            #"{"messageIdentifiers":[{"messageIdentifier":5,"messageState":"X"}]}"#,
            #"{"messageIdentifiers":[{"messageIdentifier":"a\u0000","messageState":"X"}]}"#, "[]", "nope",
        ] {
            #expect(throws: RetentionAnswerError.self, "\(text)") { try GetMessageListResponse.parse(Self.bytes(text)) }
        }
    }

    @Test func performanceTest() throws {
        let config =
            #"{"maxConcurrentRequests":10,"totalRequests":1000,"totalDuration":60000,"responseTimeThreshold":700,"successRateThreshold":90}"#
        let started = try PerformanceTestResponse.parse(Self.bytes(#"{"config":\#(config),"requestId":"r"}"#))
        #expect(started.config.responseTimeThreshold == 700 && started.requestId == "r")
        #expect(throws: RetentionAnswerError.self) {
            try PerformanceTestResponse.parse(Self.bytes(#"{"requestId":"r"}"#))
        }
        #expect(throws: RetentionAnswerError.self) {
            try PerformanceTestResponse.parse(Self.bytes(#"{"config":{"maxConcurrentRequests":1.5},"requestId":"r"}"#))
        }
        let result = try PerformanceTestResultResponse.parse(
            Self.bytes(
                #"{"config":\#(config),"target":"https://e.test","result":"FAIL","successRate":80,"numPending":0,"responseTimes":{"average":5,"p50":4,"p90":9,"p95":12,"p99":30},"failures":{"TIMED_OUT":3,"INVALID_RESPONSE":1}}"#
            ))
        #expect(result.result == .fail && result.successRate == 80)
        #expect(result.failures.map(\.reason) == ["TIMED_OUT", "INVALID_RESPONSE"])
        #expect(result.responseTimes == PerformanceTestResponseTimes(average: 5, p50: 4, p90: 9, p95: 12, p99: 30))
        let pending = try PerformanceTestResultResponse.parse(Self.bytes(#"{"result":"PENDING"}"#))
        #expect(pending.result == .pending && pending.config == nil && pending.failures.isEmpty)
        #expect(try PerformanceTestResultResponse.parse(Self.bytes(#"{"result":"MAYBE"}"#)).result == .other("MAYBE"))
        #expect(throws: RetentionAnswerError.self) {
            try PerformanceTestResultResponse.parse(Self.bytes(#"{"successRate":1}"#))
        }
        #expect(throws: RetentionAnswerError.self) {
            try PerformanceTestResultResponse.parse(Self.bytes(#"{"result":"PASS","failures":{"X":"1"}}"#))
        }
    }

    @Test func errorBodiesNameAppleCodes() throws {
        let body = try #require(
            RetentionErrorBody.parse(Self.bytes(#"{"errorCode":4000162,"errorMessage":"Too\nlong."}"#)))
        #expect(
            body.summary
                == #"4000162 HeaderTooLongError (the header text is too long (at most 66 characters)): "Too long.""#)
        #expect(
            RetentionErrorBody.parse(Self.bytes(#"{"errorCode":4001234}"#))?.summary
                == "4001234 (an error code OfferKit does not know)")
        #expect(RetentionErrorBody.parse(Self.bytes("<html>")) == nil)
        #expect(RetentionErrorBody.parse(Self.bytes(#"{"errorCode":"4000162"}"#)) == nil)
        for code in RetentionErrorCode.allCases {
            #expect([400, 403, 404, 409, 429, 500].contains(code.status), "\(code)")
            #expect(code.name.hasSuffix("Error") && !code.meaning.isEmpty)
        }
    }

    /// Every code's number is the one Apple's own App Store Server Library (Python) gives it.
    @Test(.enabled { await appleLibrary || InteropEnvironment.isCI })
    func codesAreApplesNumbers() async throws {
        let numbers = RetentionErrorCode.allCases.map { String($0.rawValue) }.joined(separator: ",")
        let result = try await ExternalProcess.run(
            InteropEnvironment.python,
            [
                "-c",
                "from appstoreserverlibrary.api_client import APIError; [APIError(n) for n in [\(numbers)]]; print('ok')",
            ])
        #expect(result.status == 0 && result.stdout == "ok\n", "\(result.stderr)")
    }

    static var appleLibrary: Bool {
        get async { await ExternalProcess.succeeds(InteropEnvironment.python, ["-c", "import appstoreserverlibrary"]) }
    }

    @Test func retryAfterIsAUnixTimeInMilliseconds() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(ServerAPIRetryAfter.delay("1800000002500", now: now) == .milliseconds(2500))
        #expect(ServerAPIRetryAfter.delay("1799999999000", now: now) == .zero)
        #expect(ServerAPIRetryAfter.delay(" 30 ", now: now) == .seconds(30))
        for text in ["", "-1", "1.5", "soon", "Wed, 21 Oct 2015 07:28:00 GMT", String(repeating: "9", count: 16)] {
            #expect(ServerAPIRetryAfter.delay(text, now: now) == nil, "\(text)")
        }
    }
}
