import OfferCodes
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
            guard answer.status == 200, let page = try? JSONValue.parse(answer.body),
                case .array(let items)? = page["data"]
            else {
                throw ConnectError.unexpectedAnswer(
                    request: "GET \(ConnectTransport.pathOnly(url))",
                    what: "status \(answer.status) and no list of resources")
            }
            for item in items {
                guard case .string(let id)? = item["id"], !taken.contains(id), let found = item["attributes"] else {
                    continue
                }
                if Self.matches(found, attributes, kind: request.subject.kind) { return id }
            }
            next = nil
            if case .string(let link)? = page["links"]?["next"], transport.address.contains(link) { next = link }
        }
        return nil
    }

    /// Whether a listed resource's attributes are those the request would create.
    static func matches(_ found: JSONValue, _ planned: JSONValue?, kind: ConnectResource.Kind) -> Bool {
        func text(_ value: JSONValue?, _ key: String) -> String? {
            if case .string(let text)? = value?[key] { return text }
            return nil
        }
        switch kind {
        case .offer:
            return text(found, "name") != nil && text(found, "name") == text(planned, "name")
        case .customCode:
            guard let code = text(found, "customCode"), let plannedCode = text(planned, "customCode") else {
                return false
            }
            return code.uppercased() == plannedCode.uppercased()
        case .oneTimeUse:
            guard found["numberOfCodes"]?.int64 != nil,
                found["numberOfCodes"]?.int64 == planned?["numberOfCodes"]?.int64,
                text(found, "expirationDate") == text(planned, "expirationDate")
            else { return false }
            let environment = text(planned, "environment") ?? "PRODUCTION"
            return (text(found, "environment") ?? "PRODUCTION") == environment
        }
    }
}
