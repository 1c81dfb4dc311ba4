import OfferCodes
import OfferConnectAPI
import OfferJSON

/// Looks a resource up in App Store Connect after a request whose outcome is unknown, through
/// the list endpoints of API 4.4.1 (`limit` 200, following `links.next`): an offer by its name
/// among the product's offer codes, a custom code by its code, a one-time-use batch by its count,
/// expiry and environment among those of the offer that no other batch has taken; a promotional
/// offer by its offer identifier (`offerCode`) and a win-back offer by its `offerId` among the
/// subscription's, both unique within a subscription; an introductory offer among the
/// subscription's in its territory by its dates, terms and price point.
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
        if request.subject.offerKind != .offerCode {
            return try await findSubscriptionOffer(request, taken: taken)
        }
        let offer = campaign.offers[request.subject.offerIndex]
        let api = OfferCodeAPI(offer.product.type)
        let path: String
        switch request.subject.kind {
        case .offer: path = api.offerListPath(productId: ConnectLister.percentEncode(offer.product.id))
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

    /// A promotional, introductory or win-back offer's id, if its subscription has it (see the
    /// type's description).
    private func findSubscriptionOffer(_ request: PlannedRequest, taken: Set<String>) async throws -> String? {
        let data = request.body["data"]
        let planned = data?["attributes"]
        let kind = request.subject.offerKind
        guard case .string(let subscription)? = data?["relationships"]?["subscription"]?["data"]?["id"],
            let path = SubscriptionOfferAPI.listPath(kind, subscriptionId: ConnectLister.percentEncode(subscription))
        else { return nil }
        var query = [("limit", "200")]
        let territory = Self.related(data, "territory")
        if kind == .introductoryOffer, let territory {
            query = [("filter[territory]", territory), ("include", "territory,subscriptionPricePoint")] + query
        }
        let listing: ConnectLister.Listing
        do {
            listing = try await ConnectLister(transport: transport).list(path, query: query)
        } catch let missing as ConnectLister.NotFound {
            throw ConnectError.lookupFailed(request: request.id, reason: missing.detail)
        }
        let candidates = listing.items.filter { !taken.contains($0.id) }
        let found: [ConnectListPage.Item]
        switch kind {
        case .promotionalOffer, .winBackOffer:
            // The identifier is unique in the subscription group: an offer that has it is this one,
            // or one made otherwise, which must not be taken for it.
            let identifier = kind == .promotionalOffer ? "offerCode" : "offerId"
            found = candidates.filter { Self.same($0.attributes, planned, identifier) }
            if let other = found.first(where: { !Self.sameAttributes($0.attributes, planned) }) {
                throw ConnectError.lookupFailed(
                    request: request.id,
                    reason: "App Store Connect has a \(kind.displayName) with this identifier (id \(other.id)) whose "
                        + "terms differ from the campaign's: it was not made from this campaign. Remove it in App "
                        + "Store Connect, or give the campaign's offer another offerIdentifier")
            }
        case .introductoryOffer:
            found = candidates.filter { item in
                Self.sameAttributes(item.attributes, planned)
                    && (item.related("territory") ?? territory) == territory
                    && item.related("subscriptionPricePoint") == Self.related(data, "subscriptionPricePoint")
            }
        case .offerCode: found = []
        }
        if found.count > 1 {
            throw ConnectError.lookupFailed(
                request: request.id,
                reason: "\(found.count) \(kind.displayName)s of subscription \(subscription) (ids "
                    + "\(found.prefix(5).map(\.id).joined(separator: ", "))) match it and none is recorded in the ledger: "
                    + "decide in App Store Connect which is the campaign's")
        }
        return found.first?.id
    }

    /// Whether member `name` of both attribute objects is the same, or absent (or `null`) in both;
    /// a `null` member of an object is the same as none, at any depth.
    private static func same(_ found: JSONValue, _ planned: JSONValue?, _ name: String) -> Bool {
        func value(_ object: JSONValue?) -> JSONValue? {
            guard let member = object?[name], member != .null else { return nil }
            return withoutNulls(member)
        }
        return value(found) == value(planned)
    }

    /// `value` without the `null` members of its objects.
    private static func withoutNulls(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            .object(members.filter { $0.value != .null }.map { ($0.key, withoutNulls($0.value)) })
        case .array(let items): .array(items.map(withoutNulls))
        default: value
        }
    }

    /// Whether every attribute the plan sends is the found resource's, and the found resource has
    /// no date the plan leaves out (App Store Connect may add attributes of its own).
    private static func sameAttributes(_ found: JSONValue, _ planned: JSONValue?) -> Bool {
        guard case .object(let members)? = planned else { return false }
        return members.allSatisfy { same(found, planned, $0.key) }
            && ["startDate", "endDate"].allSatisfy { same(found, planned, $0) }
    }

    /// The id of the planned resource's to-one relationship `name`.
    private static func related(_ data: JSONValue?, _ name: String) -> String? {
        if case .string(let id)? = data?["relationships"]?[name]?["data"]?["id"] { return id }
        return nil
    }
}
