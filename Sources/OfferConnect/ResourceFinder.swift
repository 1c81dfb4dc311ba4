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
        let kind = request.subject.kind
        var found: [String] = []
        var next: String? = path + "?limit=200"
        var pages = 0
        while let url = next {
            guard pages < Self.pageLimit else {
                throw ConnectError.lookupFailed(
                    request: request.id, reason: "the list has more than \(Self.pageLimit) pages of 200")
            }
            pages += 1
            let answer = try await transport.get(url)
            guard answer.status == 200, let page = ConnectListPage(answer.body) else {
                throw ConnectError.lookupFailed(
                    request: request.id,
                    reason: "GET \(ConnectTransport.pathOnly(url)) answered \(answer.status), not a list of resources")
            }
            for item in page.items where !taken.contains(item.id) {
                if ConnectListPage.matches(item.attributes, attributes, kind: kind) { found.append(item.id) }
            }
            // A custom code is unique in the app, and equal one-time-use batches are interchangeable:
            // the first match is the one. An offer must be the only match in the whole list.
            if kind != .offer, let first = found.first { return first }
            next = nil
            if let link = page.next {
                // Apple's links name Apple's host: the next page is asked of the same base URL
                // (a proxy, a test), and the token goes nowhere else.
                guard let rebased = transport.address.rebase(link) else {
                    throw ConnectError.lookupFailed(request: request.id, reason: "links.next is not a list URL")
                }
                next = rebased
            }
        }
        if found.count > 1 {
            throw ConnectError.lookupFailed(
                request: request.id,
                reason: "\(found.count) offer codes of the product (ids \(found.prefix(5).joined(separator: ", "))) "
                    + "match it and none is recorded in the ledger: decide in App Store Connect which is the campaign's"
            )
        }
        return found.first
    }
}
