import OfferSigning

/// The schema of every problem response: the members ``ServiceProblem/jsonValue(requestId:)``
/// writes, with `type` limited to the URIs of ``ProblemType/all``, `problems` (with
/// `invalid-campaign`) as the campaign operations write it, and `assigned` and `stored` (with
/// `no-code-left`).
package enum ProblemSchemas {
    /// An RFC 9457 problem object.
    package static let problem = JSONSchema.object(
        [
            .init(
                "type",
                .enumeration(
                    ProblemType.all.map(\.uri),
                    description: "The problem's stable type; clients may branch on it. See `x-problem-types`.")),
            .init("title", .string(StringRules(minLength: 1), description: "A short, fixed summary of the type.")),
            .init(
                "status",
                .integer(minimum: 400, maximum: 599, description: "The HTTP status code, repeated from the response.")
            ),
            .init(
                "detail",
                .string(
                    StringRules(minLength: 1),
                    description: "What happened in this request, for a person. Never contains key material.")),
            .init(
                "requestId",
                .string(
                    StringRules(minLength: 1),
                    description: "The request's id, as in the `X-Request-Id` response header and the service's log.")),
            .init(
                "field",
                .string(
                    StringRules(minLength: 1),
                    description: "The path of the field at fault, such as `productId` or `request.items[0].SKU`."),
                required: false),
            .init("problems", CampaignSchemas.problems, required: false),
            .init("problemCount", CampaignSchemas.problemCount, required: false),
            .init("truncated", CampaignSchemas.truncated, required: false),
            .init(
                "assigned",
                .integer(
                    minimum: 0,
                    description: "With `no-code-left`: the codes handed out (shared codes: to how many recipients)."),
                required: false),
            .init(
                "stored",
                .integer(
                    minimum: 0,
                    description: "With `no-code-left`: the codes there were to hand out (shared codes: redemptions)."),
                required: false),
        ], description: "An RFC 9457 problem (`application/problem+json`)."
    ).named("Problem")
}
