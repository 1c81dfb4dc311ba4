import OfferCodes
import OfferJSON
import OfferLedger
import OfferSigning

extension ServiceOperation {
    /// `POST /v1/codes/claim`: one code of an offer for one recipient, recorded in the ledger.
    static let claimCode = ServiceOperation(
        id: "claimCode", method: .post, path: "/v1/codes/claim", tag: "Codes",
        summary: "Claim an offer code for a recipient",
        description: """
            Hands out one code of a campaign's offer to a recipient and records it in the service's code ledger, \
            as `offerkit codes claim` does: the offer's next unassigned personal code (batch by batch, in the order \
            recorded, skipping batches that expired before today in UTC), or, for an offer whose codes are all \
            shared (redemption limit above 1), the campaign's shared code while it has redemptions left. Each \
            personal code goes to one recipient only, also when several services share one ledger. The same \
            recipient claiming again gets the same code (`new: false`), so a client may retry after a timeout. \
            Only a service configured with a ledger (`"ledger"`) has this operation. The campaign's app, as the \
            ledger recorded it, must be one the service serves and the API key may use.
            """,
        scope: .codes, body: ClaimCodeBody.self, responseSchema: CodeSchemas.claim,
        problems: [
            .unknownCampaign, .unknownOffer, .unknownApp, .noCodeLeft, .nothingToAssign, .offerInactive,
            .ledgerUnavailable,
        ],
        requiresLedger: true
    ) { body, request in
        let ledger = try request.ledger()
        let scope = AssignmentScope(
            campaign: body.campaign, offer: body.offer, environment: body.environment,
            today: CampaignSchemas.today(nil, request))
        let recipient = body.recipient
        let (assignment, app) = try await ledger.run(logger: request.logger, campaignField: "campaign") { ledger in
            // The campaign's app first: an unknown campaign is a 404, and an app the key may not use a
            // 403, before anything is assigned.
            let app = try await ledger.app(campaign: scope.campaign)
            try request.authorize(bundleId: app.bundleId, field: "campaign", campaign: scope.campaign)
            return (try await ledger.claim(recipient: recipient, scope: scope), app)
        }
        return OperationResponse(body: CodeClaimReport(assignment, appAppleId: app.appAppleId).json)
    }.limitingBundles(to: .campaignInLedger)
}

/// The body of `claimCode`.
struct ClaimCodeBody: OperationBody {
    let campaign: String
    let offer: String
    let recipient: String
    let environment: CodeEnvironment

    init(validated body: ValidatedBody) throws(ServiceProblem) {
        campaign = try body(Members.campaign)
        offer = try body(Members.offer)
        recipient = try body(Members.recipient)
        environment = try body(Members.environment) ?? .production
    }

    enum Members {
        static let campaign: BodyMember<String> = .required("campaign", CodeSchemas.campaignName, .string)
        static let offer: BodyMember<String> = .required("offer", CodeSchemas.offerName, .string)
        static let recipient: BodyMember<String> = .required("recipient", CodeSchemas.recipient, .string)
        static let environment: BodyMember<CodeEnvironment?> = .optional(
            "environment", CodeSchemas.environment, .enumerated)
    }

    static let schema = JSONSchema.object(
        [
            Members.campaign.property, Members.offer.property, Members.recipient.property,
            Members.environment.property,
        ], description: "The offer to hand out a code of, and to whom."
    ).example(
        .object([
            ("campaign", .string("spring-2027")), ("offer", .string("Spring half price, 3 months")),
            ("recipient", .string("user-8412")),
        ])
    ).named("ClaimCodeRequest")
}
