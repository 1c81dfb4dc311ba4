import OfferJSON

/// One App Store Connect create request of a campaign's plan.
///
/// Bodies that need the id of a resource created by an earlier request hold the placeholder
/// ``RequestPlanner/placeholder(for:)`` of that request (`<id of offer-1>`) and list the request
/// in ``dependsOn``; replace the placeholder with the id App Store Connect returned before sending.
public struct PlannedRequest: Sendable, Equatable {
    /// A stable id within the plan: `offer-1`, `offer-1-one-time-use-1`, `offer-1-custom-code-3`
    /// (numbers start at 1; custom codes are numbered across all of the offer's custom-code batches).
    public var id: String
    /// The HTTP method, `POST`.
    public var method: String
    /// The path under `https://api.appstoreconnect.apple.com`, for example `/v1/subscriptionOfferCodes`.
    public var path: String
    /// The name of Apple's request schema the body follows, for example `SubscriptionOfferCodeCreateRequest`.
    public var schema: String
    /// The ids of earlier requests whose returned resource id the body needs.
    public var dependsOn: [String]
    /// The JSON:API request body.
    package var body: JSONValue

    package init(id: String, method: String, path: String, schema: String, dependsOn: [String], body: JSONValue) {
        self.id = id
        self.method = method
        self.path = path
        self.schema = schema
        self.dependsOn = dependsOn
        self.body = body
    }

    /// The request as JSON: `{"id", "method", "path", "schema", "dependsOn", "body"}`.
    package func jsonValue() -> JSONValue {
        .object([
            ("id", .string(id)),
            ("method", .string(method)),
            ("path", .string(path)),
            ("schema", .string(schema)),
            ("dependsOn", .array(dependsOn.map { .string($0) })),
            ("body", body),
        ])
    }

    /// The body as compact JSON bytes, ready to send once its placeholders are replaced.
    public var bodyBytes: [UInt8] { body.serialized() }
}
