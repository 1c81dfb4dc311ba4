import OfferCodes
import OfferJSON
import OfferLedger
import OfferServiceContract
import OfferSigning

extension ServiceOperation {
    /// `GET /v1/campaigns/{name}/status`: what the ledger holds for a campaign and how much of it
    /// was handed out.
    static let campaignStatus = ServiceOperation(.campaignStatus) { request in
        let ledger = try request.ledger()
        let campaign = request.parameters["name"] ?? ""
        let today = CampaignSchemas.today(nil, request)
        let status = try await ledger.run(logger: request.logger, campaignField: nil) { ledger in
            try await ledger.status(campaign: campaign, today: today)
        }
        // The campaign's app first: an app the key may not use is a 403 before anything more is read.
        try request.authorize(bundleId: status.bundleId, field: "name", campaign: campaign)
        let resources = try await ledger.run(logger: request.logger, campaignField: nil) { ledger in
            try await ledger.connectResources(campaign: campaign)
        }
        let report = CampaignStatusReport(status, today: today, resources: resources)
        return OperationResponse(body: report.json)
    }
}
