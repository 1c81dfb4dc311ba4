import OfferJSON

/// Builds the JSON:API create bodies of promotional, introductory and win-back offers (App Store
/// Connect API 4.4.1), members in a fixed order, attributes left out rather than sent as `null`.
enum SubscriptionOfferBodyBuilder {
    /// `POST /v1/subscriptionPromotionalOffers`: the offer with one inline price per territory.
    static func promotional(_ offer: PromotionalOfferDefinition, number: Int) throws(RequestPlanningError) -> JSONValue
    {
        let label = "promotional offer \(number) (\"\(offer.offerIdentifier)\")"
        var attributes: [(key: String, value: JSONValue)] = [
            ("name", .string(offer.referenceName)),
            ("offerCode", .string(offer.offerIdentifier)),
        ]
        attributes += try terms(offer.terms, label: label, periodsMember: "numberOfPeriods")
        return try withPrices(
            type: SubscriptionOfferAPI.promotionalType, attributes: attributes, terms: offer.terms,
            priceType: SubscriptionOfferAPI.promotionalPriceType, localPrefix: "price-promotional-offer-\(number)",
            label: label)
    }

    /// `POST /v1/subscriptionIntroductoryOffers` for the offer's `priceIndex`-th territory.
    static func introductory(
        _ offer: IntroductoryOfferDefinition, number: Int, priceIndex: Int
    ) throws(RequestPlanningError) -> JSONValue {
        let price = offer.terms.prices[priceIndex]
        let label = "introductory offer \(number) (\(price.territory))"
        var attributes: [(key: String, value: JSONValue)] = []
        if let start = offer.startDate { attributes.append(("startDate", .string(start.description))) }
        if let end = offer.endDate { attributes.append(("endDate", .string(end.description))) }
        attributes += try terms(offer.terms, label: label, periodsMember: "numberOfPeriods")
        var relationships: [(key: String, value: JSONValue)] = [
            ("subscription", RequestBodyBuilder.link(type: "subscriptions", id: offer.terms.subscription.id)),
            ("territory", RequestBodyBuilder.link(type: "territories", id: price.territory)),
        ]
        if let pricePoint = try pricePoint(price, terms: offer.terms, label: label) {
            relationships.append(
                ("subscriptionPricePoint", RequestBodyBuilder.link(type: "subscriptionPricePoints", id: pricePoint)))
        }
        return .object([
            (
                "data",
                RequestBodyBuilder.resource(
                    type: SubscriptionOfferAPI.introductoryType, attributes: .object(attributes),
                    relationships: .object(relationships))
            )
        ])
    }

    /// `POST /v1/winBackOffers`: the offer with one inline price per territory.
    static func winBack(_ offer: WinBackOfferDefinition, number: Int) throws(RequestPlanningError) -> JSONValue {
        let label = "win-back offer \(number) (\"\(offer.offerIdentifier)\")"
        var attributes: [(key: String, value: JSONValue)] = [
            ("referenceName", .string(offer.referenceName)),
            ("offerId", .string(offer.offerIdentifier)),
        ]
        attributes += try terms(offer.terms, label: label, periodsMember: "periodCount")
        let eligibility = offer.customerEligibility
        attributes.append(
            (
                "customerEligibilityPaidSubscriptionDurationInMonths",
                .integer(eligibility.paidSubscriptionDurationInMonths)
            ))
        attributes.append(
            (
                "customerEligibilityTimeSinceLastSubscribedInMonths",
                .object([
                    ("minimum", .integer(eligibility.timeSinceLastSubscribedInMonths.lowerBound)),
                    ("maximum", .integer(eligibility.timeSinceLastSubscribedInMonths.upperBound)),
                ])
            ))
        if let wait = eligibility.waitBetweenOffersInMonths {
            attributes.append(("customerEligibilityWaitBetweenOffersInMonths", .integer(wait)))
        }
        attributes.append(("startDate", .string(offer.startDate.description)))
        if let end = offer.endDate { attributes.append(("endDate", .string(end.description))) }
        attributes.append(("priority", .string(offer.priority.rawValue)))
        if let intent = offer.promotionIntent { attributes.append(("promotionIntent", .string(intent.rawValue))) }
        return try withPrices(
            type: SubscriptionOfferAPI.winBackType, attributes: attributes, terms: offer.terms,
            priceType: SubscriptionOfferAPI.winBackPriceType, localPrefix: "price-win-back-offer-\(number)",
            label: label)
    }

    /// `duration`, `offerMode`, the number of periods (`numberOfPeriods` or `periodCount`) and,
    /// when set, `targetSubscriptionPlanType`.
    private static func terms(
        _ terms: SubscriptionOfferTerms, label: String, periodsMember: String
    ) throws(RequestPlanningError) -> [(key: String, value: JSONValue)] {
        guard terms.paymentMode != .oneTime else {
            throw .subscriptionPaymentMode(offer: label, paymentMode: terms.paymentMode)
        }
        var members: [(key: String, value: JSONValue)] = [
            ("duration", .string(terms.duration.rawValue)),
            ("offerMode", .string(terms.paymentMode.rawValue)),
            (periodsMember, .integer(terms.numberOfPeriods)),
        ]
        if let plan = terms.targetSubscriptionPlanType {
            members.append(("targetSubscriptionPlanType", .string(plan.rawValue)))
        }
        return members
    }

    /// A body whose prices are inline resources in `included`: `${<localPrefix>-<territory>}`.
    private static func withPrices(
        type: String, attributes: [(key: String, value: JSONValue)], terms: SubscriptionOfferTerms, priceType: String,
        localPrefix: String, label: String
    ) throws(RequestPlanningError) -> JSONValue {
        var references: [JSONValue] = []
        var included: [JSONValue] = []
        for price in terms.prices {
            let id = "${\(localPrefix)-\(price.territory)}"
            references.append(RequestBodyBuilder.identifier(type: priceType, id: id))
            var relationships: [(key: String, value: JSONValue)] = [
                ("territory", RequestBodyBuilder.link(type: "territories", id: price.territory))
            ]
            if let pricePoint = try pricePoint(price, terms: terms, label: label) {
                relationships.append(
                    ("subscriptionPricePoint", RequestBodyBuilder.link(type: "subscriptionPricePoints", id: pricePoint))
                )
            }
            included.append(
                .object([("type", .string(priceType)), ("id", .string(id)), ("relationships", .object(relationships))]))
        }
        let relationships: JSONValue = .object([
            ("subscription", RequestBodyBuilder.link(type: "subscriptions", id: terms.subscription.id)),
            ("prices", .object([("data", .array(references))])),
        ])
        return .object([
            (
                "data",
                RequestBodyBuilder.resource(
                    type: type, attributes: .object(attributes), relationships: relationships)
            ),
            ("included", .array(included)),
        ])
    }

    /// The price point a price entry sends: none for a free trial or a free territory.
    private static func pricePoint(
        _ price: TerritoryPrice, terms: SubscriptionOfferTerms, label: String
    ) throws(RequestPlanningError) -> String? {
        if price.needsPricePoint {
            throw .pricePointNotLookedUp(
                offer: label, product: .subscription(id: terms.subscription.id), territory: price.territory,
                customerPrice: price.customerPrice?.text ?? "")
        }
        return terms.paymentMode == .freeTrial ? nil : price.pricePoint
    }
}
