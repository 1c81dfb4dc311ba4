import OfferCodes
import OfferJSON
import OfferServiceContract

extension CampaignSchemas {
    /// `day`, or the service clock's day in UTC when the body gave none.
    static func today(_ day: CalendarDate?, _ request: OperationRequest) -> CalendarDate {
        day ?? CalendarDate(unixSeconds: Int64(request.state.clock.now().timeIntervalSince1970.rounded(.down)))
    }

    /// Checks the API key's bundle-ID limit against the campaign's app (`campaign.app.bundleId`) and
    /// that the service serves it, before anything else of the campaign is read. A campaign without a
    /// bundle ID (a string) names no app: its validation reports the member.
    /// - Throws: a 403 `forbidden` or a 404 `unknown-app` naming `campaign.app.bundleId`.
    static func authorizeApp(of campaign: JSONValue, _ request: OperationRequest) throws(ServiceProblem) {
        guard case .string(let bundleId)? = campaign["app"]?["bundleId"] else { return }
        try request.authorize(bundleId: bundleId, field: "campaign.app.bundleId")
    }
}
