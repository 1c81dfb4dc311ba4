import Foundation
import OfferCodes
import OfferSigning

/// Schemas and helpers that the offer-code campaign operations share.
///
/// The examples are derived from one example campaign by the library itself (validated and
/// planned on ``exampleToday``), so they show exactly what the service answers.
enum CampaignSchemas {
    // MARK: Request members

    /// The `campaign` member: a campaign in the format of `offerkit codes validate`.
    static let campaign = JSONSchema(
        .object([], additionalProperties: JSONSchema(.any)),
        description: """
            An offer-code campaign in the format of `offerkit codes validate` (see the README, "Offer codes", and \
            `examples/campaign.json`): `name`, `app` {`bundleId`, `appAppleId`} and `offers`, each with its \
            `referenceName`, `product`, `paymentMode`, prices and code batches. Its members are checked by the \
            campaign rules, not by this schema, so that every problem is reported at once with its JSON path.
            """,
        example: exampleCampaign
    ).named("Campaign")

    /// The `today` member.
    static let today = JSONSchema.string(
        StringRules(format: .date),
        description: """
            The day (UTC) that expiry limits, relative dates such as `P90D` and the quarter count from. \
            Default: the service's current day in UTC.
            """,
        example: exampleToday.description)

    // MARK: Responses

    /// One problem of a campaign: path, rule, message and what is allowed.
    static let campaignProblem = JSONSchema.object(
        [
            .init(
                "path",
                .string(
                    StringRules(minLength: 1),
                    description: """
                        The JSON path of the field at fault, relative to the request's `campaign` member \
                        (`$` is the campaign itself), such as `$.offers[1].paymentMode`.
                        """,
                    example: "$.offers[0].paymentMode")),
            .init(
                "rule",
                .string(
                    StringRules(minLength: 1), description: "A stable identifier of the rule that failed.",
                    example: "payment-mode-for-product-type")),
            .init("message", .string(StringRules(minLength: 1), description: "What is wrong, for a person.")),
            .init(
                "allowed", .string(StringRules(minLength: 1), description: "What the field would accept."),
                required: false),
        ], description: "One problem of a campaign."
    ).named("CampaignProblem")

    /// The list of a campaign's problems (also the `problems` member of the `invalid-campaign` problem).
    static let problems = JSONSchema.array(
        of: campaignProblem,
        description: """
            Every problem of the campaign, in document order; paths are relative to the request's `campaign` member.
            """)

    /// The response of `validateCampaign`.
    static let validation = JSONSchema(
        .object(
            [
                .init("valid", .boolean(description: "Whether the campaign breaks no rule.")),
                .init("problems", problems),
            ], additionalProperties: nil),
        description: "Whether the campaign is valid, and every problem it has (none when it is valid).",
        example: validationJSON(exampleProblems)
    ).named("CampaignValidation")

    /// One App Store Connect request of a plan.
    static let plannedRequest = JSONSchema.object(
        [
            .init(
                "id",
                .string(
                    StringRules(minLength: 1),
                    description: """
                        A stable id within the plan: `offer-1`, `offer-1-one-time-use-1`, `offer-1-custom-code-3`.
                        """,
                    example: "offer-1")),
            .init("method", .enumeration(["POST"], description: "The HTTP method.")),
            .init(
                "path",
                .string(
                    StringRules(minLength: 1), description: "The path under `https://api.appstoreconnect.apple.com`.",
                    example: "/v1/subscriptionOfferCodes")),
            .init(
                "schema",
                .string(
                    StringRules(minLength: 1),
                    description: "The name of Apple's request schema (App Store Connect API 4.4.1) the body follows.",
                    example: "SubscriptionOfferCodeCreateRequest")),
            .init(
                "dependsOn",
                .array(
                    of: .string(StringRules(minLength: 1)),
                    description: "The ids of earlier requests whose returned resource id the body needs.")),
            .init(
                "body",
                JSONSchema(
                    .object([], additionalProperties: JSONSchema(.any)),
                    description: "The JSON:API request body, with `<id of R>` placeholders.")),
        ], description: "One App Store Connect create request."
    ).named("PlannedRequest")

    /// The response of `planCampaign`: the document `offerkit codes plan` prints.
    static let plan = JSONSchema(
        .object(
            [
                .init("campaign", .string(StringRules(minLength: 1), description: "The campaign's name.")),
                .init(
                    "app",
                    .object([
                        .init("bundleId", .string(StringRules(minLength: 1), description: "The app's bundle ID.")),
                        .init("appAppleId", .string(StringRules(minLength: 1), description: "The app's Apple ID.")),
                    ])),
                .init(
                    "placeholders",
                    .string(StringRules(minLength: 1), description: "How to replace the `<id of R>` placeholders.")),
                .init("requests", .array(of: plannedRequest, description: "The requests, in the order to send them.")),
            ], additionalProperties: nil),
        description: """
            The App Store Connect requests that create the campaign, in dependency order: the same document as \
            `offerkit codes plan`.
            """,
        example: examplePlan
    ).named("CampaignPlan")

    // MARK: Helpers

    /// The request's `today`, or the service clock's day in UTC.
    /// - Throws: an `invalid-field` problem for a date that does not exist, such as 2027-02-30.
    static func today(_ request: OperationRequest) throws(ServiceProblem) -> CalendarDate {
        guard let text = request.optionalString("today") else {
            return CalendarDate(unixSeconds: Int64(request.state.clock.now().timeIntervalSince1970.rounded(.down)))
        }
        guard let day = CalendarDate(text) else {
            throw ServiceProblem(
                .invalidField,
                detail: "today: \(text) is not a day of the calendar; expected YYYY-MM-DD, such as 2027-03-15",
                field: "today")
        }
        return day
    }

    /// The request's `campaign` member as JSON bytes, for ``CampaignValidator``.
    static func campaignBytes(_ request: OperationRequest) -> [UInt8] {
        guard let campaign = request.body?["campaign"] else { preconditionFailure("schema must require campaign") }
        return campaign.serialized()
    }

    /// The body of `validateCampaign`.
    static func validationJSON(_ problems: [ValidationProblem]) -> JSONValue {
        .object([("valid", .bool(problems.isEmpty)), ("problems", .array(problems.map { $0.jsonValue() }))])
    }

    /// The `invalid-campaign` problem, with every problem in its `problems` member.
    static func invalidCampaign(_ problems: [ValidationProblem]) -> ServiceProblem {
        let count = problems.count
        let first = problems.first.map { "; the first: \($0)" } ?? ""
        return ServiceProblem(
            .invalidCampaign,
            detail: "the campaign has \(count) problem\(count == 1 ? "" : "s") (`problems` lists them all, with JSON "
                + "paths relative to `campaign`)\(first)",
            field: "campaign", extensions: [("problems", .array(problems.map { $0.jsonValue() }))])
    }

    // MARK: Examples

    /// The day the examples are validated and planned on.
    static let exampleToday = CalendarDate(year: 2027, month: 3, day: 15)!

    /// The codes the plan example supplies for the example's generated batch.
    static let exampleGeneratedCodes = ["VIPK7Q2MX9R", "VIPW4HN8T3C"]

    /// The reference name of the example's offer.
    static let exampleOfferName = "Spring half price, 3 months"

    private static let exampleCampaignText = """
        {
          "name": "spring-2027",
          "app": {"bundleId": "com.example.app", "appAppleId": "1234567890"},
          "offers": [
            {
              "referenceName": "\(exampleOfferName)",
              "product": {"id": "6450000001", "productId": "com.example.monthly", "type": "AUTO_RENEWABLE_SUBSCRIPTION"},
              "paymentMode": "PAY_AS_YOU_GO",
              "duration": "ONE_MONTH",
              "numberOfPeriods": 3,
              "customerEligibilities": ["NEW", "EXPIRED"],
              "offerEligibility": "STACK_WITH_INTRO_OFFERS",
              "prices": [{"territory": "USA", "pricePoint": "eyJzIjoiNjQ1MDAwMDAwMSIsInQiOiJVU0EiLCJwIjoiMTAwMDIifQ"}],
              "oneTimeUseCodes": [{"count": 500, "expirationDate": "P90D"}],
              "customCodes": [
                {"codes": ["SPRING27"], "redemptionLimit": 10000, "expirationDate": "2027-05-31"},
                {"generate": {"count": 2, "prefix": "VIP", "length": 8}, "redemptionLimit": 1}
              ]
            }
          ]
        }
        """

    /// The example campaign, in the campaign format.
    static let exampleCampaign: JSONValue = {
        guard let value = try? JSONValue.parse(Array(exampleCampaignText.utf8)) else {
            preconditionFailure("the example campaign is not valid JSON")
        }
        return value
    }()

    /// The problems of the example campaign with a payment mode its product type does not have.
    private static let exampleProblems: [ValidationProblem] = {
        let text = exampleCampaignText.replacingOccurrences(of: "\"PAY_AS_YOU_GO\"", with: "\"ONE_TIME\"")
        guard let report = try? CampaignValidator(today: exampleToday).validate(json: Array(text.utf8)),
            !report.isValid
        else { preconditionFailure("the invalid example campaign must have problems") }
        return report.problems
    }()

    /// The plan of the example campaign, with ``exampleGeneratedCodes`` for its generated batch.
    private static let examplePlan: JSONValue = {
        guard
            let campaign = try? CampaignValidator(today: exampleToday).validate(json: exampleCampaign.serialized())
                .validCampaign(),
            let requests = try? RequestPlanner().plan(campaign, customCodes: { _, _ in exampleGeneratedCodes })
        else { preconditionFailure("the example campaign must be valid and plannable") }
        return RequestPlanner.document(campaign: campaign, requests: requests)
    }()
}
