import Foundation

/// A problem the OfferKit service answered: an RFC 9457 problem (`application/problem+json`), thrown by
/// every operation of a ``Client`` made with ``Client/init(serverURL:apiKey:httpClient:timeout:middlewares:)`` (its
/// ``ProblemMiddleware`` throws it; the OpenAPI runtime hands it on as the `underlyingError` of a
/// `ClientError`, see `ClientError.problem`).
///
/// ```swift
/// do {
///     let signed = try await client.signPromotionalOffer(body: .json(request)).ok.body.json
/// } catch let error as ClientError where error.problem != nil {
///     let problem = error.problem!
///     print(problem.status, problem.type, problem.detail, problem.field ?? "")
/// }
/// ```
public struct OfferKitProblem: Error, LocalizedError, Sendable, Hashable {
    /// The HTTP status, such as 422.
    public var status: Int
    /// The problem's stable type, such as `urn:offerkit:problem:invalid-field`.
    public var type: String
    /// A short, fixed summary of the type.
    public var title: String
    /// What happened in this request, for a person. Never contains key material.
    public var detail: String
    /// The path of the field at fault, such as `productId` or `request.items[0].SKU`, or `nil`.
    public var field: String?
    /// The request's id, as in the `X-Request-Id` header and the service's log.
    public var requestId: String?
    /// With 429 and 503: the seconds the `Retry-After` header asks the client to wait, or `nil`.
    public var retryAfter: Int?
    /// The problem as the document's `Problem` schema, with the members only some types have
    /// (`problems`, `problemCount`, `assigned`, `stored`); `nil` when it does not decode as that schema
    /// (a problem type newer than this client).
    public var problem: Components.Schemas.Problem?

    /// A problem with these members.
    public init(
        status: Int, type: String, title: String, detail: String, field: String? = nil, requestId: String? = nil,
        retryAfter: Int? = nil, problem: Components.Schemas.Problem? = nil
    ) {
        self.status = status
        self.type = type
        self.title = title
        self.detail = detail
        self.field = field
        self.requestId = requestId
        self.retryAfter = retryAfter
        self.problem = problem
    }

    /// The problem in `body`, the JSON of an `application/problem+json` answer, or `nil` when it is not
    /// a JSON object with an integer `status` and a string `type`.
    public init?(json body: Data, retryAfter: Int? = nil) {
        struct Members: Decodable {
            var status: Int
            var type: String
            var title: String?
            var detail: String?
            var field: String?
            var requestId: String?
        }
        guard let members = try? JSONDecoder().decode(Members.self, from: body) else { return nil }
        self.init(
            status: members.status, type: members.type, title: members.title ?? "", detail: members.detail ?? "",
            field: members.field, requestId: members.requestId, retryAfter: retryAfter,
            problem: try? JSONDecoder().decode(Components.Schemas.Problem.self, from: body))
    }

    /// `status type: detail (field …)`.
    public var errorDescription: String? {
        "\(status) \(type): \(detail)" + (field.map { " (field \($0))" } ?? "")
    }
}
