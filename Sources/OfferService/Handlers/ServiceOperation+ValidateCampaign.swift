import OfferCodes
import OfferJSON
import OfferServiceContract
import OfferSigning

extension ServiceOperation {
    /// `POST /v1/campaigns/validate`: every problem of an offer-code campaign.
    static let validateCampaign = ServiceOperation(.validateCampaign, body: ValidateCampaignBody.self) {
        body, request in
        try CampaignSchemas.authorizeApp(of: body.campaign, request)
        let validator = CampaignValidator(today: CampaignSchemas.today(body.today, request))
        let report = try validator.validate(json: CampaignSchemas.campaignBytes(body.campaign))
        return OperationResponse(body: report.json)
    }
}
