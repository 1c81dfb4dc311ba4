import OfferJSON

extension ShapeReader {
    static let offerMembers = [
        "referenceName", "product", "paymentMode", "duration", "numberOfPeriods", "customerEligibilities",
        "offerEligibility", "autoRenewEnabled", "targetSubscriptionPlanType", "prices", "oneTimeUseCodes",
        "customCodes", "displayName",
    ]
    static let productMembers = ["id", "productId", "type"]
    static let priceMembers = ["territory", "pricePoint", "customerPrice", "free"]

    /// What could be read of one offer, or `nil` when it is not an object (every shape problem
    /// is reported).
    mutating func readOffer(_ value: JSONValue, at path: ProblemPath) -> OfferDraft? {
        guard
            let offer = object(
                value, at: path, noun: "the offer", members: Self.offerMembers,
                allowed: "an object describing one offer")
        else { return nil }
        var draft = OfferDraft()
        draft.referenceName = string("referenceName", of: offer, required: true, allowed: AllowedText.referenceName)
        draft.displayName = readDisplayName(of: offer)
        draft.product = readProduct(of: offer)
        draft.paymentMode = enumeration("paymentMode", of: offer, required: true, naming: "a payment mode")
        draft.duration = part(
            "duration", of: offer, enumeration("duration", of: offer, required: false, naming: "an offer duration"))
        draft.numberOfPeriods = part(
            "numberOfPeriods", of: offer,
            integer("numberOfPeriods", of: offer, required: false, allowed: AllowedText.numberOfPeriods))
        draft.customerEligibilities = readCustomerEligibilities(of: offer)
        draft.offerEligibility = part(
            "offerEligibility", of: offer,
            enumeration("offerEligibility", of: offer, required: false, naming: "an offer eligibility"))
        draft.autoRenewEnabled = part(
            "autoRenewEnabled", of: offer,
            bool("autoRenewEnabled", of: offer, required: false, allowed: AllowedText.autoRenewEnabled))
        draft.targetSubscriptionPlanType = part(
            "targetSubscriptionPlanType", of: offer,
            enumeration("targetSubscriptionPlanType", of: offer, required: false, naming: "a subscription plan type"))
        draft.prices = readPrices(of: offer)
        draft.oneTimeUseCodes = readOneTimeUseBatches(of: offer)
        draft.customCodes = readCustomCodeBatches(of: offer)
        return draft
    }

    /// An optional member as a ``DraftPart``, given what its accessor returned.
    func part<Value>(_ key: String, of object: ShapeObject, _ value: Value?) -> DraftPart<Value> {
        DraftPart(value, isThere: object.has(key))
    }

    /// The offer's `displayName` entries (none when it is absent or `null`), or `nil` when it is
    /// not an object; a title is `nil` when it is not a string. The rules check tags and titles.
    private mutating func readDisplayName(of offer: ShapeObject) -> [(language: String, title: String?)]? {
        guard let value = member("displayName", of: offer, required: false, allowed: AllowedText.displayName)
        else { return [] }
        let path = offer.path["displayName"]
        guard case .object(let members) = value else {
            if case .string(let text) = value {
                report(
                    path, rule: "wrong-type",
                    "expected \(AllowedText.displayName), found \(value.shortDescription); give the title per "
                        + "language, such as {\"en\": \(ProblemText.quoted(text))}", allowed: AllowedText.displayName)
            } else {
                wrongType(value, at: path, expected: AllowedText.displayName, kind: .object)
            }
            return nil
        }
        return members.map { member in
            (member.key, string(member.value, at: path[member.key], allowed: AllowedText.displayNameTitle))
        }
    }

    private mutating func readProduct(of offer: ShapeObject) -> ProductDraft? {
        guard
            let product = object(
                "product", of: offer, required: true, noun: "the product", members: Self.productMembers,
                allowed: AllowedText.product)
        else { return nil }
        let id = string("id", of: product, required: true, allowed: AllowedText.connectId)
        let productId = string("productId", of: product, required: true, allowed: AllowedText.productId)
        let type: ProductType? = enumeration("type", of: product, required: true, naming: "a product type")
        return ProductDraft(id: id, productId: productId, type: type)
    }

    private mutating func readCustomerEligibilities(of offer: ShapeObject) -> [CustomerEligibility?]? {
        guard
            let values = array(
                "customerEligibilities", of: offer, required: true, allowed: AllowedText.customerEligibilities,
                elements: .string)
        else { return nil }
        let path = offer.path["customerEligibilities"]
        return values.enumerated().map {
            enumeration($0.element, at: path[$0.offset], naming: "a customer eligibility")
        }
    }

    /// The object's `prices` (each `nil` when it is not an object), or `nil` when the list cannot be read.
    mutating func readPrices(of offer: ShapeObject) -> [PriceDraft?]? {
        guard let values = array("prices", of: offer, required: true, allowed: AllowedText.prices, elements: .object)
        else { return nil }
        return values.enumerated().map { readPrice($0.element, at: offer.path["prices"][$0.offset]) }
    }

    private mutating func readPrice(_ value: JSONValue, at path: ProblemPath) -> PriceDraft? {
        guard
            let entry = object(
                value, at: path, noun: "the price entry", members: Self.priceMembers,
                allowed: "an object with territory and one of pricePoint, customerPrice or \"free\": true")
        else { return nil }
        let territory = string("territory", of: entry, required: true, allowed: AllowedText.territory)
        let pricePoint = string("pricePoint", of: entry, required: false, allowed: AllowedText.pricePoint)
        let customerPrice = readCustomerPrice(of: entry)
        let free = bool("free", of: entry, required: false, allowed: AllowedText.free)
        let hasPricePoint = entry.has("pricePoint")
        let hasCustomerPrice = entry.has("customerPrice")
        if hasCustomerPrice, hasPricePoint || free == true {
            let other = hasPricePoint ? "a \"pricePoint\"" : "\"free\": true"
            report(
                path, rule: "price-or-free",
                "the entry has both a \"customerPrice\" and \(other); keep one: the price point, or the customer "
                    + "price for OfferKit to look its price point up, or \"free\": true for a free territory",
                allowed: AllowedText.priceEntry)
        } else if hasPricePoint, free == true {
            report(
                path, rule: "price-or-free",
                "the entry has both a \"pricePoint\" and \"free\": true; keep the price point for a paid "
                    + "territory, or \"free\": true for a free one", allowed: AllowedText.priceEntry)
        } else if !hasPricePoint, !hasCustomerPrice, !entry.has("free") {
            report(
                path, rule: "price-or-free",
                "the entry has neither a \"pricePoint\" nor \"free\": true; add one of them (or a \"customerPrice\", "
                    + "such as \"4.99\", for OfferKit to look the price point up)", allowed: AllowedText.priceEntry)
        } else if !hasPricePoint, !hasCustomerPrice, free == false {
            report(
                path, rule: "price-or-free",
                "the entry has \"free\": false but no \"pricePoint\"; add a pricePoint (or a customerPrice), or write "
                    + "\"free\": true", allowed: AllowedText.priceEntry)
        }
        // Paid when there is exactly one of a price point and a customer price and `free` is left
        // out or false; free when only `"free": true` is there; unclear otherwise (reported above,
        // or a part is unreadable).
        let freeIsKnown = free != nil || !entry.has("free")
        // (An unreadable price point still says the entry is paid, as it always has.)
        let paidIsKnown = hasPricePoint || !hasCustomerPrice || customerPrice != nil
        let isFree: Bool? =
            switch (hasPricePoint || hasCustomerPrice, free) {
            case (true, true): nil
            case (true, _): freeIsKnown && paidIsKnown && !(hasPricePoint && hasCustomerPrice) ? false : nil
            case (false, true): true
            case (false, _): nil
            }
        return PriceDraft(territory: territory, pricePoint: pricePoint, customerPrice: customerPrice, isFree: isFree)
    }

    /// The entry's `customerPrice`, when it is a string that is a price (a problem otherwise).
    private mutating func readCustomerPrice(of entry: ShapeObject) -> CustomerPrice? {
        guard let text = string("customerPrice", of: entry, required: false, allowed: AllowedText.customerPrice)
        else { return nil }
        if let problem = CustomerPrice.problem(with: text) {
            report(
                entry.path["customerPrice"], rule: "customer-price", "\(ProblemText.quoted(text)) \(problem)",
                allowed: AllowedText.customerPrice)
            return nil
        }
        return CustomerPrice(text)
    }
}
