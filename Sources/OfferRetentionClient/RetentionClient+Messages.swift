import OfferRetentionAPI

extension RetentionClient {
    /// Upload Message (`PUT /inApps/v1/messaging/message/{messageIdentifier}`). The message is
    /// `PENDING` until Apple approves it (at once in the sandbox).
    ///
    /// The message list is asked first: an identifier already there is refused without sending
    /// (``RetentionAPIError/alreadyExists(operation:kind:identifier:)``). So after a lost answer,
    /// when the list is asked again before the upload is sent again, finding the message means this
    /// upload made it, not an earlier one.
    /// - Throws: `RequestValidationError` for a body or identifier Apple would refuse, before
    ///   anything is sent; ``RetentionAPIError`` (`alreadyExists`, `MessageAlreadyExistsError`, …).
    public func uploadMessage(_ messageIdentifier: String, _ body: UploadMessageRequestBody) async throws {
        let id = try RetentionIdentifier.uuid(messageIdentifier, field: "messageIdentifier")
        let checked = try body.validated()
        let listed: @Sendable () async throws -> Bool = { [self] in
            try await messages().messageIdentifiers.contains { $0.messageIdentifier.lowercased() == id }
        }
        if try await listed() {
            throw RetentionAPIError.alreadyExists(operation: "Upload Message", kind: "message", identifier: id)
        }
        _ = try await send(
            RetentionRequest(
                operation: "Upload Message", method: "PUT", path: "/inApps/v1/messaging/message/\(id)",
                body: checked.jsonBytes(),
                afterUnknownOutcome: .lookUp(isDone: listed), doneWhenRefusedAgainWith: .messageAlreadyExists))
    }

    /// Get Message List (`GET /inApps/v1/messaging/message/list`).
    public func messages() async throws -> GetMessageListResponse {
        let operation = "Get Message List"
        let body = try await send(
            RetentionRequest(operation: operation, method: "GET", path: "/inApps/v1/messaging/message/list"))
        return try read(body, operation: operation, GetMessageListResponse.parse)
    }

    /// Delete Message (`DELETE /inApps/v1/messaging/message/{messageIdentifier}`). Sent again
    /// after a lost answer, `MessageNotFoundError` means the first one deleted it.
    public func deleteMessage(_ messageIdentifier: String) async throws {
        let id = try RetentionIdentifier.uuid(messageIdentifier, field: "messageIdentifier")
        _ = try await send(
            RetentionRequest(
                operation: "Delete Message", method: "DELETE", path: "/inApps/v1/messaging/message/\(id)",
                doneWhenRefusedAgainWith: .messageNotFound))
    }
}
