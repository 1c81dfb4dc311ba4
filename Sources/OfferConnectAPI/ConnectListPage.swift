import OfferCodes
import OfferJSON

/// One page of an App Store Connect list answer (`…sResponse`, API 4.4.1): each resource's id,
/// attributes and relationships, the resources it includes (`include=…`), and `links.next`.
package struct ConnectListPage: Sendable, Equatable {
    /// A listed (or included) resource.
    package struct Item: Sendable, Equatable {
        package var id: String
        package var attributes: JSONValue
        /// Its `type` (`apps`, `territories`, …), when the answer gives one.
        package var type: String? = nil
        /// Its `relationships` object, when the answer gives one.
        package var relationships: JSONValue? = nil

        /// The id of the to-one relationship `name` (`relationships.NAME.data.id`), when given.
        package func related(_ name: String) -> String? {
            if case .string(let id)? = relationships?[name]?["data"]?["id"] { return id }
            return nil
        }
    }

    package var items: [Item]
    /// The resources of `included`, as ``items`` reads them.
    package var included: [Item]
    /// The next page's URL, when there is one.
    package var next: String?

    /// The page in `body`, or `nil` when it is not a JSON:API list (a `data` array of resources).
    /// Resources without a string `id` (1 to ``ConnectResource/maximumIdBytes`` bytes) or without
    /// attributes are left out.
    package init?(_ body: [UInt8]) {
        guard body.count <= 64 << 20, let page = try? JSONValue.parse(body), case .array(let data)? = page["data"]
        else { return nil }
        items = data.compactMap(Self.item)
        if case .array(let others)? = page["included"] {
            included = others.compactMap(Self.item)
        } else {
            included = []
        }
        if case .string(let link)? = page["links"]?["next"], link.utf8.count <= 4_096 {
            next = link
        } else {
            next = nil
        }
    }

    private static func item(_ item: JSONValue) -> Item? {
        guard case .string(let id)? = item["id"], !id.isEmpty, id.utf8.count <= ConnectResource.maximumIdBytes,
            let attributes = item["attributes"], case .object = attributes
        else { return nil }
        var type: String?
        if case .string(let text)? = item["type"] { type = text }
        var relationships: JSONValue?
        if let links = item["relationships"], case .object = links { relationships = links }
        return Item(id: id, attributes: attributes, type: type, relationships: relationships)
    }

    /// Whether a listed resource's attributes are those a planned create request
    /// (`data.attributes` of its body) would make: an offer by its `name`, a custom code by its
    /// `customCode` (case-insensitively), a one-time-use batch by `numberOfCodes`, `expirationDate`
    /// and `environment` (absent = `PRODUCTION`).
    package static func matches(_ found: JSONValue, _ planned: JSONValue?, kind: ConnectResource.Kind) -> Bool {
        func text(_ value: JSONValue?, _ key: String) -> String? {
            if case .string(let text)? = value?[key] { return text }
            return nil
        }
        switch kind {
        case .offer:
            // The name, and every other attribute the list shows, as planned (eligibilities in any
            // order); an offer switched off is not one a create request just made.
            guard let name = text(found, "name"), name == text(planned, "name") else { return false }
            if case .bool(false)? = found["active"] { return false }
            guard case .object(let members)? = planned else { return true }
            for (key, value) in members where key != "name" {
                guard let listed = found[key] else { continue }
                switch (value, listed) {
                case (.array(let a), .array(let b)):
                    let texts = { (items: [JSONValue]) in
                        Set(items.map { String(decoding: $0.serialized(), as: UTF8.self) })
                    }
                    if texts(a) != texts(b) { return false }
                default:
                    if value != listed { return false }
                }
            }
            return true
        case .customCode:
            guard let code = text(found, "customCode"), let plannedCode = text(planned, "customCode") else {
                return false
            }
            return code.uppercased() == plannedCode.uppercased()
        case .oneTimeUse:
            guard let count = found["numberOfCodes"]?.int64, count == planned?["numberOfCodes"]?.int64,
                let expiry = text(found, "expirationDate"), expiry == text(planned, "expirationDate")
            else { return false }
            return (text(found, "environment") ?? "PRODUCTION") == (text(planned, "environment") ?? "PRODUCTION")
        }
    }

    /// The id in a `201` answer's `data.id`, when usable.
    package static func createdId(_ body: [UInt8]) -> String? {
        guard body.count <= 8 << 20, let value = try? JSONValue.parse(body),
            case .string(let id)? = value["data"]?["id"],
            !id.isEmpty, id.utf8.count <= ConnectResource.maximumIdBytes,
            !id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " })
        else { return nil }
        return id
    }
}
