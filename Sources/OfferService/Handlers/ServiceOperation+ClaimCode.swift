import OfferCodes
import OfferJSON
import OfferLedger
import OfferServiceContract
import OfferSigning

extension ServiceOperation {
    /// `POST /v1/codes/claim`: one code of an offer for one recipient, recorded in the ledger.
    static let claimCode = ServiceOperation(.claimCode, body: ClaimCodeBody.self) { body, request in
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
    }
}
