import OfferRetentionAPI

extension RetentionClient {
    /// Configure Default Message (`PUT /inApps/v1/messaging/default/{productId}/{locale}`, body
    /// `{"messageIdentifier"}`): the message Apple shows for the product and locale when the
    /// endpoint gives none. Apple requires the message (and its image) `APPROVED`; it overwrites
    /// an earlier default, so it is sent again after a lost answer.
    public func configureDefaultMessage(productId: String, locale: String, messageIdentifier: String) async throws {
        let path = try Self.defaultPath(productId: productId, locale: locale)
        let id = try RetentionIdentifier.uuid(messageIdentifier, field: "messageIdentifier")
        _ = try await send(
            RetentionRequest(
                operation: "Configure Default Message", method: "PUT", path: path,
                body: Self.body("messageIdentifier", id)))
    }

    /// Get Default Message (`GET /inApps/v1/messaging/default/{productId}/{locale}`).
    /// - Throws: ``RetentionAPIError/refused(operation:request:status:error:)`` with
    ///   `DefaultMessageNotFoundError` when none is configured.
    public func defaultMessage(productId: String, locale: String) async throws -> DefaultConfigurationResponse {
        let operation = "Get Default Message"
        let body = try await send(
            RetentionRequest(
                operation: operation, method: "GET", path: try Self.defaultPath(productId: productId, locale: locale)))
        return try read(body, operation: operation, DefaultConfigurationResponse.parse)
    }

    /// Delete Default Message (`DELETE /inApps/v1/messaging/default/{productId}/{locale}`). Sent
    /// again after a lost answer, `DefaultMessageNotFoundError` means the first one deleted it.
    public func deleteDefaultMessage(productId: String, locale: String) async throws {
        _ = try await send(
            RetentionRequest(
                operation: "Delete Default Message", method: "DELETE",
                path: try Self.defaultPath(productId: productId, locale: locale),
                doneWhenRefusedAgainWith: .defaultMessageNotFound))
    }

    /// `/inApps/v1/messaging/default/{productId}/{locale}` after the identifiers' checks (their
    /// characters need no escaping).
    static func defaultPath(productId: String, locale: String) throws -> String {
        let product = try RetentionIdentifier.productId(productId, field: "productId")
        let checkedLocale = try RetentionIdentifier.locale(locale, field: "locale")
        return "/inApps/v1/messaging/default/\(product)/\(checkedLocale)"
    }
}
