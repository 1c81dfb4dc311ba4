import OfferRetentionAPI

extension RetentionClient {
    /// Configure Realtime URL (`PUT /inApps/v1/messaging/realtime/url`): the URL Apple calls for
    /// real-time retention messages in this environment. In production Apple requires a passed
    /// sandbox performance test first (`ForbiddenNoPassingTestError`).
    /// - Throws: `RequestValidationError` for a URL Apple would refuse (not `https://`, over 256
    ///   characters), before anything is sent; ``RetentionAPIError``.
    public func configureRealtimeURL(_ url: String) async throws {
        let checked = try RealtimeURL.checked(url)
        _ = try await send(
            RetentionRequest(
                operation: "Configure Realtime URL", method: "PUT", path: Self.realtimeURLPath,
                body: Self.body("realtimeURL", checked)))
    }

    /// Get Realtime URL (`GET /inApps/v1/messaging/realtime/url`).
    /// - Throws: ``RetentionAPIError/refused(operation:request:status:error:)`` with
    ///   `RealtimeUrlNotFoundError` when none is configured.
    public func realtimeURL() async throws -> RealtimeUrlResponse {
        let operation = "Get Realtime URL"
        let body = try await send(RetentionRequest(operation: operation, method: "GET", path: Self.realtimeURLPath))
        return try read(body, operation: operation, RealtimeUrlResponse.parse)
    }

    /// Delete Realtime URL (`DELETE /inApps/v1/messaging/realtime/url`). Sent again after a lost
    /// answer, `RealtimeUrlNotFoundError` means the first one deleted it.
    public func deleteRealtimeURL() async throws {
        _ = try await send(
            RetentionRequest(
                operation: "Delete Realtime URL", method: "DELETE", path: Self.realtimeURLPath,
                doneWhenRefusedAgainWith: .realtimeUrlNotFound))
    }

    static let realtimeURLPath = "/inApps/v1/messaging/realtime/url"
}
