import OfferJSON

extension ShapeReader {
    static let offerMembers = [
        "referenceName", "product", "paymentMode", "duration", "numberOfPeriods", "customerEligibilities",
        "offerEligibility", "autoRenewEnabled", "targetSubscriptionPlanType", "prices", "oneTimeUseCodes",
        "customCodes",
    ]
    static let productMembers = ["id", "productId", "type"]
    static let priceMembers = ["territory", "pricePoint", "free"]

    /// One offer, or `nil` when it has a shape problem (all of them are reported).
    mutating func readOffer(_ value: JSONValue, at path: ProblemPath) -> OfferDefinition? {
        let before = findings.count
        guard
            let offer = object(
                value, at: path, noun: "the offer", members: Self.offerMembers,
                allowed: "an object describing one offer")
        else { return nil }
        let referenceName = string("referenceName", of: offer, required: true, allowed: AllowedText.referenceName)
        let product = readProduct(of: offer)
        let paymentMode: PaymentMode? = enumeration("paymentMode", of: offer, required: true, naming: "a payment mode")
        let duration: OfferDuration? = enumeration("duration", of: offer, required: false, naming: "an offer duration")
        let numberOfPeriods = integer(
            "numberOfPeriods", of: offer, required: false, allowed: AllowedText.numberOfPeriods)
        let eligibilities = readCustomerEligibilities(of: offer)
        let offerEligibility: OfferEligibility? = enumeration(
            "offerEligibility", of: offer, required: false, naming: "an offer eligibility")
        let autoRenewEnabled = bool(
            "autoRenewEnabled", of: offer, required: false, allowed: AllowedText.autoRenewEnabled)
        let planType: SubscriptionPlanType? = enumeration(
            "targetSubscriptionPlanType", of: offer, required: false, naming: "a subscription plan type")
        let prices = readPrices(of: offer)
        let oneTimeUseCodes = readOneTimeUseBatches(of: offer)
        let customCodes = readCustomCodeBatches(of: offer)
        guard findings.count == before, let referenceName, let product, let paymentMode, let eligibilities,
            let prices, let oneTimeUseCodes, let customCodes
        else { return nil }
        return OfferDefinition(
            referenceName: referenceName, product: product, paymentMode: paymentMode, duration: duration,
            numberOfPeriods: numberOfPeriods, customerEligibilities: eligibilities, offerEligibility: offerEligibility,
            autoRenewEnabled: autoRenewEnabled, targetSubscriptionPlanType: planType, prices: prices,
            oneTimeUseCodes: oneTimeUseCodes, customCodes: customCodes)
    }

    private mutating func readProduct(of offer: ShapeObject) -> ProductReference? {
        guard
            let product = object(
                "product", of: offer, required: true, noun: "the product", members: Self.productMembers,
                allowed: AllowedText.product)
        else { return nil }
        let id = string("id", of: product, required: true, allowed: AllowedText.productId)
        let productId = string("productId", of: product, required: true, allowed: AllowedText.productId)
        let type: ProductType? = enumeration("type", of: product, required: true, naming: "a product type")
        guard let id, let productId, let type else { return nil }
        return ProductReference(id: id, productId: productId, type: type)
    }

    private mutating func readCustomerEligibilities(of offer: ShapeObject) -> [CustomerEligibility]? {
        guard
            let values = array(
                "customerEligibilities", of: offer, required: true, allowed: AllowedText.customerEligibilities,
                elements: .string)
        else { return nil }
        let path = offer.path["customerEligibilities"]
        let eligibilities: [CustomerEligibility?] = values.enumerated().map {
            enumeration($0.element, at: path[$0.offset], naming: "a customer eligibility")
        }
        return eligibilities.contains(nil) ? nil : eligibilities.compactMap { $0 }
    }

    private mutating func readPrices(of offer: ShapeObject) -> [TerritoryPrice]? {
        guard let values = array("prices", of: offer, required: true, allowed: AllowedText.prices, elements: .object)
        else { return nil }
        let prices = values.enumerated().map { readPrice($0.element, at: offer.path["prices"][$0.offset]) }
        return prices.contains(nil) ? nil : prices.compactMap { $0 }
    }

    private mutating func readPrice(_ value: JSONValue, at path: ProblemPath) -> TerritoryPrice? {
        let before = findings.count
        guard
            let entry = object(
                value, at: path, noun: "the price entry", members: Self.priceMembers,
                allowed: "an object with territory and either pricePoint or \"free\": true")
        else { return nil }
        let territory = string("territory", of: entry, required: true, allowed: AllowedText.territory)
        let pricePoint = string("pricePoint", of: entry, required: false, allowed: AllowedText.pricePoint)
        let free = bool("free", of: entry, required: false, allowed: AllowedText.free)
        let hasPricePoint = entry.has("pricePoint")
        if hasPricePoint, free == true {
            report(
                path, rule: "price-or-free",
                "the entry has both a \"pricePoint\" and \"free\": true; keep the price point for a paid "
                    + "territory, or \"free\": true for a free one", allowed: AllowedText.priceEntry)
        } else if !hasPricePoint, !entry.has("free") {
            report(
                path, rule: "price-or-free",
                "the entry has neither a \"pricePoint\" nor \"free\": true; add one of them",
                allowed: AllowedText.priceEntry)
        } else if !hasPricePoint, free == false {
            report(
                path, rule: "price-or-free",
                "the entry has \"free\": false but no \"pricePoint\"; add a pricePoint, or write \"free\": true",
                allowed: AllowedText.priceEntry)
        }
        guard findings.count == before, let territory else { return nil }
        return TerritoryPrice(territory: territory, pricePoint: free == true ? nil : pricePoint)
    }
}
