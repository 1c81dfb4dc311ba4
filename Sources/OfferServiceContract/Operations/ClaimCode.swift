import OfferCodes
import OfferJSON
import OfferSigning

extension OperationContract {
    /// `POST /v1/codes/claim`: one code of an offer for one recipient, recorded in the ledger.
    package static let claimCode = OperationContract(
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
    ).limitingBundles(to: .campaignInLedger)
}

/// The body of `claimCode`.
package struct ClaimCodeBody: OperationBody {
    package let campaign: String
    package let offer: String
    package let recipient: String
    package let environment: CodeEnvironment

    package init(validated body: ValidatedBody) throws(ServiceProblem) {
        campaign = try body(Members.campaign)
        offer = try body(Members.offer)
        recipient = try body(Members.recipient)
        environment = try body(Members.environment) ?? .production
    }

    package enum Members {
        package static let campaign: BodyMember<String> = .required("campaign", CodeSchemas.campaignName, .string)
        package static let offer: BodyMember<String> = .required("offer", CodeSchemas.offerName, .string)
        package static let recipient: BodyMember<String> = .required("recipient", CodeSchemas.recipient, .string)
        package static let environment: BodyMember<CodeEnvironment?> = .optional(
            "environment", CodeSchemas.environment, .enumerated)
    }

    package static let schema = JSONSchema.object(
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
