import OfferJSON

/// Builds the JSON:API bodies of the create requests, members in a fixed order:
/// `data` (`type`, `attributes`, `relationships`), then `included`.
enum RequestBodyBuilder {
    /// The offer's create body, with one inline price resource per territory in `included`.
    ///
    /// - Parameter number: the offer's 1-based position in the campaign (for the local price ids
    ///   and for messages).
    static func offer(_ offer: OfferDefinition, number: Int) throws(RequestPlanningError) -> JSONValue {
        let api = OfferCodeAPI(offer.product.type)
        if let price = offer.prices.first(where: \.needsPricePoint) {
            throw .pricePointNotLookedUp(
                offer: "offer \(number) (\"\(offer.referenceName)\")", product: PricePointQuery.Product(offer.product),
                territory: price.territory, customerPrice: price.customerPrice?.text ?? "")
        }
        guard offer.product.type.allowedPaymentModes.contains(offer.paymentMode) else {
            throw .paymentModeNotAllowed(
                offer: number, referenceName: offer.referenceName, paymentMode: offer.paymentMode,
                productType: offer.product.type)
        }
        let attributes = try self.attributes(of: offer, number: number, api: api)
        let priceIds = offer.prices.map { priceId(offer: number, territory: $0.territory) }
        let product = api.productRelationship
        let relationships: JSONValue = .object([
            (product.name, link(type: product.type, id: offer.product.id)),
            ("prices", .object([("data", .array(priceIds.map { identifier(type: api.priceType, id: $0) }))])),
        ])
        let included = zip(offer.prices, priceIds).map { price, id in
            inlinePrice(price, id: id, api: api, free: price.isFree || offer.paymentMode == .freeTrial)
        }
        return .object([
            ("data", resource(type: api.offerType, attributes: attributes, relationships: relationships)),
            ("included", .array(included)),
        ])
    }

    /// A one-time-use batch's create body.
    static func oneTimeUse(_ batch: OneTimeUseBatch, api: OfferCodeAPI, offerRequestId: String) -> JSONValue {
        var attributes: [(key: String, value: JSONValue)] = [
            ("numberOfCodes", .integer(batch.count)),
            ("expirationDate", .string(batch.expirationDate.description)),
        ]
        if let environment = batch.environment { attributes.append(("environment", .string(environment.rawValue))) }
        return .object([
            (
                "data",
                resource(
                    type: api.oneTimeUseType, attributes: .object(attributes),
                    relationships: offerCode(api, offerRequestId))
            )
        ])
    }

    /// One custom code's create body.
    static func customCode(_ code: String, batch: CustomCodeBatch, api: OfferCodeAPI, offerRequestId: String)
        -> JSONValue
    {
        var attributes: [(key: String, value: JSONValue)] = [
            ("customCode", .string(code)),
            ("numberOfCodes", .integer(batch.redemptionLimit)),
        ]
        if let date = batch.expirationDate { attributes.append(("expirationDate", .string(date.description))) }
        return .object([
            (
                "data",
                resource(
                    type: api.customCodeType, attributes: .object(attributes),
                    relationships: offerCode(api, offerRequestId))
            )
        ])
    }

    /// The local id of an inline price: `${price-<offer number>-<territory>}`.
    static func priceId(offer number: Int, territory: String) -> String { "${price-\(number)-\(territory)}" }

    private static func attributes(of offer: OfferDefinition, number: Int, api: OfferCodeAPI)
        throws(RequestPlanningError) -> JSONValue
    {
        var members: [(key: String, value: JSONValue)] = [
            ("name", .string(offer.referenceName)),
            ("customerEligibilities", .array(offer.customerEligibilities.map { .string($0.rawValue) })),
        ]
        guard api == .subscription else { return .object(members) }
        func required<T>(_ value: T?, _ field: String) throws(RequestPlanningError) -> T {
            guard let value else {
                throw .missingField(offer: number, referenceName: offer.referenceName, field: field)
            }
            return value
        }
        let periods =
            offer.paymentMode == .payAsYouGo
            ? try required(offer.numberOfPeriods, "numberOfPeriods") : offer.numberOfPeriods ?? 1
        members.append(("offerEligibility", .string(try required(offer.offerEligibility, "offerEligibility").rawValue)))
        members.append(("duration", .string(try required(offer.duration, "duration").rawValue)))
        members.append(("offerMode", .string(offer.paymentMode.rawValue)))
        members.append(("numberOfPeriods", .integer(periods)))
        if let autoRenew = offer.autoRenewEnabled { members.append(("autoRenewEnabled", .bool(autoRenew))) }
        if let plan = offer.targetSubscriptionPlanType {
            members.append(("targetSubscriptionPlanType", .string(plan.rawValue)))
        }
        return .object(members)
    }

    /// An inline price: its territory and, unless the entry is free, its price point.
    private static func inlinePrice(_ price: TerritoryPrice, id: String, api: OfferCodeAPI, free: Bool) -> JSONValue {
        var relationships: [(key: String, value: JSONValue)] = [
            ("territory", link(type: "territories", id: price.territory))
        ]
        if !free, let pricePoint = price.pricePoint {
            let relationship = api.pricePointRelationship
            relationships.append((relationship.name, link(type: relationship.type, id: pricePoint)))
        }
        return .object([
            ("type", .string(api.priceType)), ("id", .string(id)), ("relationships", .object(relationships)),
        ])
    }

    private static func offerCode(_ api: OfferCodeAPI, _ offerRequestId: String) -> JSONValue {
        .object([("offerCode", link(type: api.offerType, id: RequestPlanner.placeholder(for: offerRequestId)))])
    }

    static func resource(type: String, attributes: JSONValue, relationships: JSONValue) -> JSONValue {
        .object([("type", .string(type)), ("attributes", attributes), ("relationships", relationships)])
    }

    /// A to-one relationship: `{"data": {"type": …, "id": …}}`.
    static func link(type: String, id: String) -> JSONValue {
        .object([("data", identifier(type: type, id: id))])
    }

    static func identifier(type: String, id: String) -> JSONValue {
        .object([("type", .string(type)), ("id", .string(id))])
    }
}
