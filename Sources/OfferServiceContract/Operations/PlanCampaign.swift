import Foundation
import OfferCodes
import OfferJSON
import OfferSigning

extension OperationContract {
    /// `POST /v1/campaigns/plan`: the App Store Connect requests that create a campaign.
    package static let planCampaign = OperationContract(
        id: "planCampaign", method: .post, path: "/v1/campaigns/plan", tag: "Campaigns",
        summary: "Plan the App Store Connect requests that create a campaign",
        description: """
            Validates the campaign, then answers the App Store Connect API 4.4.1 create requests (method, path, \
            JSON:API body) that make its offers and codes, in dependency order: the same document as \
            `offerkit codes plan`. Nothing is sent to App Store Connect. A body that needs an id App Store \
            Connect returns holds the placeholder `<id of R>`: replace it with `data.id` of the 201 response to \
            request R (listed in `dependsOn`).

            The service keeps no ledger, so the codes of each custom-code batch with `generate` must come with \
            the request, in `customCodes`: generate and record them with `offerkit codes generate` (with the \
            ledger), then send them. They must fit the batch's `generate` (count, prefix, length, alphabet) and \
            be unique in the campaign, ignoring case. An invalid campaign is a 422 `invalid-campaign` problem \
            whose `problems` lists the problems (the first \(CampaignSchemas.maximumListedProblems); \
            `problemCount` has the total), with JSON paths relative to `campaign`. The campaign's app \
            (`app.bundleId`) must be one the service serves and the API key may use.
            """,
        scope: .campaigns, body: PlanCampaignBody.self, responseSchema: CampaignSchemas.plan,
        problems: [.invalidCampaign, .unknownApp], runsLong: true
    ).limitingBundles(to: .campaignInRequest)
}

/// The body of `planCampaign`.
package struct PlanCampaignBody: OperationBody {
    /// The campaign, as JSON: the offer-code library reads it.
    package let campaign: JSONValue
    package let today: CalendarDate?
    /// The `customCodes` entries, in order.
    package let customCodes: [SuppliedCodesEntry]

    package init(validated body: ValidatedBody) throws(ServiceProblem) {
        campaign = try body(CampaignSchemas.campaignMember)
        today = try CampaignSchemas.day(body(CampaignSchemas.todayMember))
        var entries: [SuppliedCodesEntry] = []
        for (index, entry) in (try body(Members.customCodes) ?? []).enumerated() {
            entries.append(try SuppliedCodesEntry(validated: ValidatedBody(entry, path: "customCodes[\(index)]")))
        }
        customCodes = entries
    }

    /// One `customCodes` entry: the codes of one generated custom-code batch.
    package struct SuppliedCodesEntry: OperationBody {
        /// Where the entry is in the body, such as `customCodes[0]`.
        package let field: String
        /// The offer's `referenceName`.
        package let offer: String
        /// The batch's number among the offer's `customCodes`, from 1.
        package let batch: Int64
        package let codes: [String]

        package init(validated body: ValidatedBody) throws(ServiceProblem) {
            field = body.path
            offer = try body(Members.offer)
            batch = try body(Members.batch)
            codes = try body(Members.codes)
        }

        package enum Members {
            package static let offer: BodyMember<String> = .required(
                "offer",
                .string(
                    .identifier(), description: "The offer's `referenceName` in the campaign.",
                    example: CampaignSchemas.exampleOfferName),
                .string)
            package static let batch: BodyMember<Int64> = .required(
                "batch",
                .integer(
                    minimum: 1,
                    description: """
                        Which of the offer's `customCodes` batches, numbered from 1 as everywhere in OfferKit \
                        (`offerkit codes --batch 1`, "batch 2" in messages): 2 is the second entry of the offer's \
                        `customCodes` list (JSON path `customCodes[1]`). The batch must have `generate`.
                        """,
                    example: 2),
                .integer)
            package static let codes: BodyMember<[String]> = .required(
                "codes",
                .array(
                    of: .string(
                        .identifier(maxLength: CodeGenerator.maximumCodeLength), description: "A generated code.",
                        example: CampaignSchemas.exampleGeneratedCodes[0]),
                    minItems: 1, maxItems: CampaignSchemas.maximumCodesPerBatch,
                    description: """
                        The batch's codes, as `offerkit codes generate` recorded them in the ledger: as many as its \
                        `generate.count`, each the prefix followed by `length` characters of the alphabet. At most \
                        \(CampaignSchemas.maximumCodesPerBatch): each code counts at least once towards Apple's \
                        limit of production codes per app per quarter.
                        """),
                .strings)
        }

        package static let schema = JSONSchema.object(
            [Members.offer.property, Members.batch.property, Members.codes.property],
            description: "The codes of one custom-code batch that the campaign generates."
        ).named("SuppliedCustomCodes")
    }

    /// The most `customCodes` entries: one per custom-code batch of the largest campaign.
    package static let maximumEntries = CampaignSchemas.maximumOffers * CampaignSchemas.maximumBatches

    package enum Members {
        package static let customCodes: BodyMember<[JSONValue]?> = .optional(
            "customCodes",
            .array(
                of: SuppliedCodesEntry.schema, maxItems: maximumEntries,
                description: """
                    The codes of every custom-code batch with `generate`, one entry per batch: at most \
                    \(maximumEntries), every batch of the largest campaign the service takes.
                    """),
            .elements)
    }

    package static let schema = JSONSchema.object(
        [CampaignSchemas.campaignMember.property, CampaignSchemas.todayMember.property, Members.customCodes.property],
        description: "A campaign to plan, the day to plan it on, and the codes of its generated batches."
    ).example(
        .object([
            ("campaign", CampaignSchemas.exampleCampaign),
            ("today", .string(CampaignSchemas.exampleToday.description)),
            (
                "customCodes",
                .array([
                    .object([
                        ("offer", .string(CampaignSchemas.exampleOfferName)), ("batch", .integer(2)),
                        ("codes", .array(CampaignSchemas.exampleGeneratedCodes.map { .string($0) })),
                    ])
                ])
            ),
        ])
    ).named("PlanCampaignRequest")
}
