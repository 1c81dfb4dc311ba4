import OfferRetentionAPI

extension RetentionClient {
    /// Initiate Performance Test (`POST /inApps/v1/messaging/performanceTest`, sandbox only):
    /// Apple calls the sandbox real-time URL concurrently with requests for the original
    /// transaction ID's subscription and measures the answers. Not sent twice after a lost answer.
    /// - Parameter originalTransactionId: a sandbox transaction of an active auto-renewable subscription.
    public func initiatePerformanceTest(originalTransactionId: String) async throws -> PerformanceTestResponse {
        let id = try RetentionIdentifier.originalTransactionId(originalTransactionId, field: "originalTransactionId")
        let operation = "Initiate Performance Test"
        let body = try await send(
            RetentionRequest(
                operation: operation, method: "POST", path: "/inApps/v1/messaging/performanceTest",
                body: Self.body("originalTransactionId", id), afterUnknownOutcome: .stop))
        return try read(body, operation: operation, PerformanceTestResponse.parse)
    }

    /// Get Performance Test Results (`GET /inApps/v1/messaging/performanceTest/result/{requestId}`):
    /// `PENDING` while the test runs, then `PASS` or `FAIL`.
    public func performanceTestResult(requestId: String) async throws -> PerformanceTestResultResponse {
        let id = try RetentionIdentifier.uuid(requestId, field: "requestId")
        let operation = "Get Performance Test Results"
        let body = try await send(
            RetentionRequest(
                operation: operation, method: "GET", path: "/inApps/v1/messaging/performanceTest/result/\(id)"))
        return try read(body, operation: operation, PerformanceTestResultResponse.parse)
    }
}
