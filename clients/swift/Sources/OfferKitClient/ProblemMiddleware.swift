import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Turns every problem answer of the service (a status of 400 or more with an `application/problem+json`
/// body) into a thrown ``OfferKitProblem``, whether the operation documents that status or not. Other
/// answers pass through unchanged.
///
/// ``Client/init(serverURL:apiKey:httpClient:timeout:middlewares:)`` installs it. Without it, a documented problem
/// arrives as a case of the operation's `Output` (such as `.unprocessableContent`) and an undocumented
/// one as `.undocumented`.
public struct ProblemMiddleware: ClientMiddleware {
    /// The largest problem body read (1 MiB): a larger `Content-Length` is handed on as it is; a body
    /// without one that turns out larger fails the request.
    public static let maxProblemBytes = 1 << 20

    /// A middleware that throws problems.
    public init() {}

    /// Sends the request, then throws the answer's problem, if it is one.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400, let responseBody, Self.isProblem(response.headerFields[.contentType])
        else { return (response, responseBody) }
        if case .known(let length) = responseBody.length, length > Self.maxProblemBytes {
            return (response, responseBody)
        }
        let data = try await Data(collecting: responseBody, upTo: Self.maxProblemBytes)
        let retryAfter = response.headerFields[.retryAfter].flatMap { Int($0) }
        if let problem = OfferKitProblem(json: data, retryAfter: retryAfter) { throw problem }
        return (response, HTTPBody(data))
    }

    /// Whether a `Content-Type` names `application/problem+json` (parameters and case aside).
    static func isProblem(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "application/problem+json"
    }
}
