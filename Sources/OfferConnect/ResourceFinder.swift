import OfferCodes
import OfferConnectAPI
import OfferJSON

/// Looks a resource up in App Store Connect after a request whose outcome is unknown, through
/// the list endpoints of API 4.4.1 (`limit` 200, following `links.next`): an offer by its name
/// among the product's offer codes, a custom code by its code, a one-time-use batch by its count,
/// expiry and environment among those of the offer that no other batch has taken.
struct ResourceFinder {
    let transport: ConnectTransport

    /// The most pages read for one lookup (200 resources each).
    static let pageLimit = 500

    /// The id of the resource `request` would create, if it exists.
    ///
    /// - Parameters:
    ///   - offerId: the offer's App Store Connect id (for one-time-use batches and custom codes).
    ///   - taken: ids that belong to other resources of the campaign.
    func find(
        _ request: PlannedRequest, campaign: Campaign, offerId: String?, taken: Set<String>
    ) async throws -> String? {
        let offer = campaign.offers[request.subject.offerIndex]
        let api = OfferCodeAPI(offer.product.type)
        let path: String
        switch request.subject.kind {
        case .offer: path = api.offerListPath(productId: offer.product.id)
        case .oneTimeUse, .customCode:
            guard let offerId else { return nil }
            path = api.childListPath(offerId: offerId, kind: request.subject.kind)
        }
        let attributes = request.body["data"]?["attributes"]
        var next: String? = path + "?limit=200"
        var pages = 0
        while let url = next, pages < Self.pageLimit {
            pages += 1
            let answer = try await transport.get(url)
            guard answer.status == 200, let page = ConnectListPage(answer.body) else {
                throw ConnectError.unexpectedAnswer(
                    request: "GET \(ConnectTransport.pathOnly(url))",
                    what: "status \(answer.status) and no list of resources")
            }
            for item in page.items where !taken.contains(item.id) {
                if ConnectListPage.matches(item.attributes, attributes, kind: request.subject.kind) { return item.id }
            }
            next = nil
            if let link = page.next, transport.address.contains(link) { next = link }
        }
        return nil
    }
}
