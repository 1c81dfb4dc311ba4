import OfferCodes
import OfferJSON
import OfferSigning

extension OperationContract {
    /// `GET /v1/campaigns/{name}/status`: what the ledger holds for a campaign and how much of it
    /// was handed out.
    package static let campaignStatus = OperationContract(
        id: "campaignStatus", method: .get, path: "/v1/campaigns/{name}/status", tag: "Codes",
        summary: "A campaign's codes: recorded, imported, assigned and left",
        description: """
            What the service's code ledger holds for a campaign, with the members `offerkit codes status --format \
            json` prints: per offer and batch, the codes recorded, stored (custom codes, or one-time-use codes \
            imported from Apple), handed out and left, and whether the batch expired before today (UTC); totals per \
            offer and environment; the app's usage of this quarter's limits (codes per quarter, active offers); and \
            the campaign's App Store Connect resources as `offerkit codes apply` recorded them. Needs the `codes` \
            scope, as claiming does. Only a service configured with a ledger (`"ledger"`) has this operation. The \
            campaign's app, as the ledger recorded it, must be one the service serves and the API key may use.
            """,
        scope: .codes, pathParameters: [.init("name", CodeSchemas.campaignName)], requestSchema: nil,
        responseSchema: CodeSchemas.status,
        problems: [.invalidField, .unknownCampaign, .unknownApp, .ledgerUnavailable],
        requiresLedger: true
    ).limitingBundles(to: .campaignInLedger)
}
