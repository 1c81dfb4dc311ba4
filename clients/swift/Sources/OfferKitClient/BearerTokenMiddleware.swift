import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends an OfferKit API key as `Authorization: Bearer <key>` with every request (the document's
/// `apiKey` security scheme; swift-openapi-generator leaves authentication to middleware). The public
/// endpoints ignore it.
public struct BearerTokenMiddleware: ClientMiddleware {
    private let authorization: String

    /// A middleware that sends `apiKey`, the secret `offerkit api-key create` printed.
    public init(apiKey: String) {
        authorization = "Bearer \(apiKey)"
    }

    /// Adds the `Authorization` header and sends the request.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = authorization
        return try await next(request, body, baseURL)
    }
}
