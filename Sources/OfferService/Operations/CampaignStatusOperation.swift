import OfferCodes
import OfferJSON
import OfferLedger
import OfferSigning

extension ServiceOperation {
    /// `GET /v1/campaigns/{name}/status`: what the ledger holds for a campaign and how much of it
    /// was handed out.
    static let campaignStatus = ServiceOperation(
        id: "campaignStatus", method: .get, path: "/v1/campaigns/{name}/status", tag: "Codes",
        summary: "A campaign's codes: recorded, imported, assigned and left",
        description: """
            What the service's code ledger holds for a campaign, as `offerkit codes status` shows it: per offer and \
            batch, the codes recorded, stored (custom codes, or one-time-use codes imported from Apple), handed \
            out and left, and whether the batch expired before today (UTC); and the app's usage of this quarter's \
            limits (codes per quarter, active offers). Needs the `codes` scope, as claiming does. Only a service \
            configured with a ledger (`"ledger"`) has this operation. The campaign's app, as the ledger recorded \
            it, must be one the service serves and the API key may use.
            """,
        scope: .codes, pathParameters: [.init("name", CodeSchemas.campaignName)], requestSchema: nil,
        responseSchema: CodeSchemas.status,
        problems: [.invalidField, .unknownCampaign, .unknownApp, .ledgerUnavailable],
        requiresLedger: true
    ) { request in
        let ledger = try request.ledger()
        let campaign = request.parameters["name"] ?? ""
        let today = CampaignSchemas.today(nil, request)
        let status = try await ledger.run(logger: request.logger, campaignField: nil) { ledger in
            try await ledger.status(campaign: campaign, today: today)
        }
        try request.authorize(bundleId: status.bundleId, field: "name", campaign: campaign)
        return OperationResponse(body: CodeSchemas.statusJSON(status))
    }.limitingBundles(to: .campaignInLedger)
}
