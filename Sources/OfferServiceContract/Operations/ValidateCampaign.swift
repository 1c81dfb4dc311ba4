import OfferCodes
import OfferJSON
import OfferSigning

extension OperationContract {
    /// `POST /v1/campaigns/validate`: every problem of an offer-code campaign.
    package static let validateCampaign = OperationContract(
        id: "validateCampaign", method: .post, path: "/v1/campaigns/validate", tag: "Campaigns",
        summary: "Validate an offer-code campaign",
        description: """
            Checks a campaign against the campaign format, App Store Connect's rules and Apple's limits, as \
            `offerkit codes validate` does, and lists every problem at once, each with its JSON path (relative to \
            the request's `campaign` member, such as `$.offers[1].paymentMode`), a stable rule id, a message and \
            what is allowed. An invalid campaign is a 200 answer with `valid: false`; `problems` lists the first \
            \(CampaignSchemas.maximumListedProblems) problems and `problemCount` their total. The service is stateless: \
            it keeps no ledger, so checks against other campaigns of the app (active offers, codes already \
            issued, codes counted earlier in the quarter) are left to `offerkit codes validate` with the ledger. \
            The campaign's app (`app.bundleId`) must be one the service serves and the API key may use.
            """,
        scope: .campaigns, body: ValidateCampaignBody.self, responseSchema: CampaignSchemas.validation,
        problems: [.unknownApp], runsLong: true
    ).limitingBundles(to: .campaignInRequest)
}

/// The body of `validateCampaign`.
package struct ValidateCampaignBody: OperationBody {
    /// The campaign, as JSON: the offer-code library reads it.
    package let campaign: JSONValue
    package let today: CalendarDate?

    package init(validated body: ValidatedBody) throws(ServiceProblem) {
        campaign = try body(CampaignSchemas.campaignMember)
        today = try CampaignSchemas.day(body(CampaignSchemas.todayMember))
    }

    package static let schema = JSONSchema.object(
        [CampaignSchemas.campaignMember.property, CampaignSchemas.todayMember.property],
        description: "A campaign to validate, and the day to validate it on."
    ).example(
        .object([
            ("campaign", CampaignSchemas.exampleCampaign), ("today", .string(CampaignSchemas.exampleToday.description)),
        ])
    ).named("ValidateCampaignRequest")
}
