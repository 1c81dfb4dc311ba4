import Foundation

/// The parts of the stand-in's `GET /_standin/state` the proofs read.
struct StandInState {
    struct Resource: CustomStringConvertible {
        let type: String
        let id: String
        let attributes: [String: JSON]
        /// The product (offers) or the offer (codes, prices).
        let parent: String
        /// An offer's price resource ids.
        let prices: [String]
        /// A price's `{"territory", "pricePoint"}`.
        let relationships: JSON?

        var description: String { "\(type) \(id) under \(parent): \(JSON.object(attributes).canonical)" }

        /// Whether this is what `request` (a plan line) creates, under the offer `offerId`: same type, the
        /// planned attributes (App Store Connect adds its own), the planned product or offer.
        func isCreated(by request: JSON, offerId: String?) -> Bool {
            guard let data = request["body"]?["data"], data["type"]?.string == type else { return false }
            for (name, value) in data["attributes"]?.object ?? [:] where attributes[name] != value { return false }
            if request["dependsOn"]?.array?.isEmpty ?? true {
                // The product: an offer code's subscription or in-app purchase, a promotional, introductory or
                // win-back offer's subscription (an introductory offer also names its territory and price point).
                let relationships = data["relationships"]?.object ?? [:]
                let product = ["subscription", "inAppPurchase"].compactMap { relationships[$0]?["data"]?["id"]?.string }
                return product == [parent]
            }
            return offerId != nil && parent == offerId
        }
    }

    struct Post: CustomStringConvertible {
        let method: String
        let path: String
        let outcome: String
        let id: String?
        var description: String { "\(method) \(path): \(outcome)" }
    }

    let raw: JSON
    let resources: [Resource]
    let posts: [Post]

    init?(_ json: JSON?) {
        guard let json, let items = json["resources"]?.array, let log = json["posts"]?.array else { return nil }
        raw = json
        resources = items.compactMap { item in
            guard let type = item["type"]?.string, let id = item["id"]?.string,
                let parent = item["parent"]?["id"]?.string
            else { return nil }
            return Resource(
                type: type, id: id, attributes: item["attributes"]?.object ?? [:], parent: parent,
                prices: item["prices"]?.array?.compactMap(\.string) ?? [], relationships: item["relationships"])
        }
        posts = log.compactMap { entry in
            guard let method = entry["method"]?.string, method == "POST", let path = entry["path"]?.string,
                let outcome = entry["outcome"]?.string
            else { return nil }
            return Post(method: method, path: path, outcome: outcome, id: entry["id"]?.string)
        }
    }

    /// Offers, one-time-use batches and custom codes (not prices: they are part of their offer).
    var connectResources: [Resource] { resources.filter { !$0.type.hasSuffix("Prices") } }

    /// Each price resource as `TERRITORY pricePoint` (or `TERRITORY free`), by id.
    var priceText: [String: String] {
        var texts: [String: String] = [:]
        for price in resources where price.type.hasSuffix("Prices") {
            let territory = price.relationships?["territory"]?.string ?? "?"
            texts[price.id] = territory + " " + (price.relationships?["pricePoint"]?.string ?? "free")
        }
        return texts
    }

    /// The prices an offer request includes, as ``priceText`` writes them.
    static func prices(of request: JSON) -> Set<String> {
        Set(
            (request["body"]?["included"]?.array ?? []).map { included in
                let relationships = included["relationships"]?.object ?? [:]
                let territory = relationships["territory"]?["data"]?["id"]?.string ?? "?"
                let point = relationships.filter { $0.key != "territory" }.values.compactMap {
                    $0["data"]?["id"]?.string
                }.first
                return territory + " " + (point ?? "free")
            })
    }

    /// Every offer, batch and custom code without ids and creation times: offers with their product and
    /// prices, the others with their offer's name. Sorted, so that two runs compare as multisets.
    func normalized() -> [String] {
        let names = Dictionary(
            connectResources.filter { $0.type.hasSuffix("OfferCodes") }.map {
                ($0.id, $0.attributes["name"]?.string ?? "?")
            }
        ) { first, _ in first }
        let prices = priceText
        return connectResources.map { resource in
            var attributes = resource.attributes
            attributes["createdDate"] = nil
            if resource.type.hasSuffix("OfferCodes") {
                let texts = resource.prices.map { prices[$0] ?? "?" }.sorted()
                return "\(resource.type) of product \(resource.parent) \(JSON.object(attributes).canonical) "
                    + "prices \(texts.joined(separator: ", "))"
            }
            return "\(resource.type) of offer \(names[resource.parent] ?? "?") \(JSON.object(attributes).canonical)"
        }.sorted()
    }
}
