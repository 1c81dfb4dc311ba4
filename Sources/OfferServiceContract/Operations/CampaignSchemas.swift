import Foundation
import OfferCodes
import OfferJSON
import OfferSigning

/// Schemas and helpers that the offer-code campaign operations share.
///
/// The examples are derived from one example campaign by the library itself (validated and
/// planned on ``exampleToday``), so they show exactly what the service answers.
package enum CampaignSchemas {
    // MARK: Bounds

    /// The most offers a campaign may list: ten times Apple's limit of
    /// ``CampaignLimits/activeOffersPerApp`` active offers per app, so that a campaign over that
    /// limit still gets its full list of problems (the campaign rules report the limit itself).
    package static let maximumOffers = 100
    /// The most price entries of an offer: one per territory, and the App Store has 175 storefronts
    /// (countries and regions).
    package static let maximumPrices = 175
    /// The most customer eligibilities of an offer: each of its product type's three at most once.
    package static let maximumCustomerEligibilities = 3
    /// The most one-time-use batches, and the most custom-code batches, of one offer. Apple states no
    /// per-offer bound; each batch is one or more App Store Connect requests, and 100 is far more
    /// than a campaign needs.
    package static let maximumBatches = 100
    /// The most codes of one custom-code batch: each code counts at least once (its redemption limit)
    /// towards Apple's ``CampaignLimits/productionCodesPerQuarter`` production codes per app per
    /// quarter, so the campaign rules refuse any longer list.
    package static let maximumCodesPerBatch = CampaignLimits.productionCodesPerQuarter
    /// The lengths of a `displayName` language tag.
    private static let tagLength = CampaignLimits.languageTagLength
    /// The most problems a response lists; `problemCount` has the total.
    package static let maximumListedProblems = ValidationReport.maximumListedProblems

    // MARK: Request members

    /// One offer of the `campaign` member: only the bounds of its arrays are checked here.
    package static let offer = JSONSchema(
        .object(
            [
                .init(
                    "displayName",
                    JSONSchema(
                        .any,
                        description: """
                            The offer's customer-facing title per language (or `null`, as if absent): an object of \
                            at most \(CampaignLimits.maximumDisplayNameEntries) members, each a language tag \
                            (\(tagLength.lowerBound)-\(tagLength.upperBound) letters, digits and `-`; compared \
                            case-insensitively, `_` as `-`, each language once) mapped to a non-blank title of at \
                            most \(CampaignLimits.maximumTitleLength) characters without control characters, such \
                            as `{"en": "Three months free", "ja": "3か月無料"}`. Exported messages show it (the \
                            message's language, else `en`), never `referenceName`. Checked by the campaign rules.
                            """), required: false),
                .init(
                    "customerEligibilities",
                    .array(
                        of: JSONSchema(.any), maxItems: maximumCustomerEligibilities,
                        description: "Who may redeem the codes: each of the product type's eligibilities at most once."
                    ), required: false),
                .init(
                    "prices",
                    .array(
                        of: JSONSchema(.any), maxItems: maximumPrices,
                        description: """
                            One price entry per territory: at most \(maximumPrices), the number of App Store \
                            storefronts.
                            """), required: false),
                .init(
                    "oneTimeUseCodes",
                    JSONSchema(
                        .any,
                        description: """
                            The one-time-use batches: an array of at most \(maximumBatches) (or `null`, as if \
                            absent).
                            """), required: false),
                .init(
                    "customCodes",
                    JSONSchema(
                        .any,
                        description: """
                            The custom-code batches: an array of at most \(maximumBatches) (or `null`, as if \
                            absent); a batch's `codes` list at most \(maximumCodesPerBatch) codes, since each \
                            counts towards Apple's limit of \(CampaignLimits.productionCodesPerQuarter) production \
                            codes per app per quarter.
                            """), required: false),
            ], additionalProperties: JSONSchema(.any)),
        description: """
            One offer, in the format of `offerkit codes validate`. Only the sizes of its lists are checked before \
            the campaign rules, which check everything else (and report every problem at once). The bounds of \
            `oneTimeUseCodes`, `customCodes` and a batch's `codes` are checked by the service before the rules \
            (an `invalid-field` problem naming the list), as these members may also be `null`.
            """
    ).named("CampaignOffer")

    /// The `campaign` member: a campaign in the format of `offerkit codes validate`.
    package static let campaign = JSONSchema(
        .object(
            [
                .init("name", JSONSchema(.any, description: "The campaign's name."), required: false),
                .init("app", JSONSchema(.any, description: "The app: `bundleId` and `appAppleId`."), required: false),
                .init(
                    "offers",
                    .array(
                        of: offer, maxItems: maximumOffers,
                        description: """
                            The offers: at most \(maximumOffers), ten times Apple's limit of \
                            \(CampaignLimits.activeOffersPerApp) active offers per app (the campaign rules report \
                            that limit as a problem).
                            """), required: false),
            ], additionalProperties: JSONSchema(.any)),
        description: """
            An offer-code campaign in the format of `offerkit codes validate` (see the README, "Offer codes", and \
            `examples/campaign.json`): `name`, `app` {`bundleId`, `appAppleId`} and `offers`, each with its \
            `referenceName`, optional `displayName`, `product`, `paymentMode`, prices and code batches. This \
            schema bounds only the sizes of its lists; its members are checked by the campaign rules, so that \
            every problem is reported at once with its JSON path.
            """,
        example: exampleCampaign
    ).named("Campaign")

    /// The `today` member.
    package static let today = JSONSchema.string(
        StringRules(format: .date),
        description: """
            The day (UTC) that expiry limits, relative dates such as `P90D` and the quarter count from. \
            Default: the service's current day in UTC.
            """,
        example: exampleToday.description)

    // MARK: Responses

    /// One problem of a campaign: path, rule, message and what is allowed.
    package static let campaignProblem = JSONSchema.object(
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
    package static let problems = JSONSchema.array(
        of: campaignProblem, maxItems: maximumListedProblems,
        description: """
            The campaign's problems, in document order, at most the first \(maximumListedProblems) (`problemCount` \
            has the total); paths are relative to the request's `campaign` member.
            """)

    /// The `problemCount` member (also of the `invalid-campaign` problem).
    package static let problemCount = JSONSchema.integer(
        minimum: 0, description: "How many problems the campaign has in all, listed or not.", example: 2)

    /// The `truncated` member (also of the `invalid-campaign` problem).
    package static let truncated = JSONSchema.boolean(
        description: """
            Whether `problems` lists only the first \(maximumListedProblems) of the `problemCount` problems.
            """,
        example: false)

    /// The response of `validateCampaign`.
    package static let validation = JSONSchema(
        .object(
            [
                .init("valid", .boolean(description: "Whether the campaign breaks no rule.")),
                .init("problems", problems),
                .init("problemCount", problemCount),
                .init("truncated", truncated),
            ], additionalProperties: nil),
        description: """
            Whether the campaign is valid, and its problems (none when it is valid): the first \
            \(maximumListedProblems), with the total in `problemCount`.
            """,
        example: ValidationReport(campaign: nil, problems: exampleProblems).json
    ).named("CampaignValidation")

    /// One App Store Connect request of a plan.
    package static let plannedRequest = JSONSchema.object(
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
    package static let plan = JSONSchema(
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

    /// The `today` member of a campaign body: a day, checked against the calendar.
    package static let todayMember: BodyMember<String?> = .optional("today", today, .string)

    /// The `campaign` member of a campaign body.
    package static let campaignMember: BodyMember<JSONValue> = .required("campaign", campaign, .json)

    /// A body's `today`, parsed: `nil` when it is left out.
    /// - Throws: an `invalid-field` problem for a date that does not exist, such as 2027-02-30.
    package static func day(_ text: String?) throws(ServiceProblem) -> CalendarDate? {
        guard let text else { return nil }
        guard let day = CalendarDate(text) else {
            throw ServiceProblem(
                .invalidField,
                detail: "today: \(text) is not a day of the calendar; expected YYYY-MM-DD, such as 2027-03-15",
                field: "today")
        }
        return day
    }

    /// A body's `campaign` member as JSON bytes, for ``CampaignValidator``, after checking the
    /// bounds of the lists the schema cannot type (they may be `null`).
    /// - Throws: an `invalid-field` problem naming a list that is too long.
    package static func campaignBytes(_ campaign: JSONValue) throws(ServiceProblem) -> [UInt8] {
        try checkBatchBounds(campaign)
        return campaign.serialized()
    }

    /// Refuses an offer with more than ``maximumBatches`` one-time-use or custom-code batches, or a
    /// custom-code batch with more than ``maximumCodesPerBatch`` codes. Other shapes are left to the
    /// campaign rules.
    private static func checkBatchBounds(_ campaign: JSONValue) throws(ServiceProblem) {
        guard case .array(let offers)? = campaign["offers"] else { return }
        for (offerIndex, offer) in offers.enumerated() {
            let offerField = "campaign.offers[\(offerIndex)]"
            try checkCount(offer["oneTimeUseCodes"], maximum: maximumBatches, field: "\(offerField).oneTimeUseCodes")
            try checkCount(offer["customCodes"], maximum: maximumBatches, field: "\(offerField).customCodes")
            guard case .array(let batches)? = offer["customCodes"] else { continue }
            for (batchIndex, batch) in batches.enumerated() {
                try checkCount(
                    batch["codes"], maximum: maximumCodesPerBatch,
                    field: "\(offerField).customCodes[\(batchIndex)].codes")
            }
        }
    }

    private static func checkCount(_ value: JSONValue?, maximum: Int, field: String) throws(ServiceProblem) {
        guard case .array(let elements)? = value, elements.count > maximum else { return }
        throw ServiceProblem.invalid(
            SchemaViolation(
                field: field, expected: "an array of at most \(maximum) elements",
                found: "an array of \(elements.count) elements"))
    }

    /// The `invalid-campaign` problem, with the first ``maximumListedProblems`` problems in its
    /// `problems` member and their total in `problemCount`.
    package static func invalidCampaign(_ problems: [ValidationProblem]) -> ServiceProblem {
        let count = problems.count
        let first = problems.first.map { "; the first: \($0)" } ?? ""
        let listed =
            count > maximumListedProblems
            ? "`problems` lists the first \(maximumListedProblems)" : "`problems` lists them all"
        return ServiceProblem(
            .invalidCampaign,
            detail: "the campaign has \(count) problem\(count == 1 ? "" : "s") (\(listed), with JSON paths relative "
                + "to `campaign`)\(first)",
            field: "campaign", extensions: ValidationReport.problemMembers(problems))
    }

    // MARK: Examples

    /// The day the examples are validated and planned on.
    package static let exampleToday = CalendarDate(year: 2027, month: 3, day: 15)!

    /// The codes the plan example supplies for the example's generated batch.
    package static let exampleGeneratedCodes = ["VIPK7Q2MX9R", "VIPW4HN8T3C"]

    /// The reference name of the example's offer.
    package static let exampleOfferName = "Spring half price, 3 months"

    private static let exampleCampaignText = """
        {
          "name": "spring-2027",
          "app": {"bundleId": "com.example.app", "appAppleId": "1234567890"},
          "offers": [
            {
              "referenceName": "\(exampleOfferName)",
              "displayName": {"en": "Half price for 3 months", "ja": "3か月間半額"},
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
    package static let exampleCampaign: JSONValue = {
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
