import OfferJSON

extension AdvancedCommerce {
    /// The product of a one-time charge.
    public struct OneTimeChargeItem: Codable, Hashable, Sendable {
        /// Your identifier for the product (≤ 128 characters).
        public var sku: String
        /// A description that customers do not see (≤ 45 characters).
        public var description: String
        /// The name customers see (≤ 30 characters).
        public var displayName: String
        /// The price in milli-units of the currency (4990 = 4.99).
        public var price: Int64

        public init(sku: String, description: String, displayName: String, price: Int64) {
            self.sku = sku
            self.description = description
            self.displayName = displayName
            self.price = price
        }

        enum CodingKeys: String, CodingKey {
            case sku = "SKU"
            case description, displayName, price
        }

        func validate() throws(RequestValidationError) {
            try Check.itemFields(sku: sku, description: description, displayName: displayName, price: price)
        }

        func write(into writer: inout JSONWriter) {
            writer.beginObject()
            writer.itemFields(sku: sku, description: description, displayName: displayName, price: price)
            writer.endObject()
        }
    }

    /// An item of a new subscription, optionally with a discount offer.
    public struct SubscriptionItem: Codable, Hashable, Sendable {
        public var sku: String
        public var description: String
        public var displayName: String
        /// The price in milli-units of the currency.
        public var price: Int64
        public var offer: Offer?

        public init(sku: String, description: String, displayName: String, price: Int64, offer: Offer? = nil) {
            self.sku = sku
            self.description = description
            self.displayName = displayName
            self.price = price
            self.offer = offer
        }

        enum CodingKeys: String, CodingKey {
            case sku = "SKU"
            case description, displayName, price, offer
        }

        func validate() throws(RequestValidationError) {
            try Check.itemFields(sku: sku, description: description, displayName: displayName, price: price)
            try Check.pricing(offer: offer, proratedPrice: nil)
        }

        func write(into writer: inout JSONWriter) {
            writer.beginObject()
            writer.itemFields(sku: sku, description: description, displayName: displayName, price: price)
            writer.pricing(offer: offer, proratedPrice: nil)
            writer.endObject()
        }
    }

    /// An item added to an existing subscription.
    public struct AddItem: Codable, Hashable, Sendable {
        public var sku: String
        public var description: String
        public var displayName: String
        public var price: Int64
        public var offer: Offer?
        /// The prorated price for the rest of the current period, in milli-units.
        public var proratedPrice: Int64?

        public init(
            sku: String, description: String, displayName: String, price: Int64, offer: Offer? = nil,
            proratedPrice: Int64? = nil
        ) {
            self.sku = sku
            self.description = description
            self.displayName = displayName
            self.price = price
            self.offer = offer
            self.proratedPrice = proratedPrice
        }

        enum CodingKeys: String, CodingKey {
            case sku = "SKU"
            case description, displayName, price, offer, proratedPrice
        }

        func validate() throws(RequestValidationError) {
            try Check.itemFields(sku: sku, description: description, displayName: displayName, price: price)
            try Check.pricing(offer: offer, proratedPrice: proratedPrice)
        }

        func write(into writer: inout JSONWriter) {
            writer.beginObject()
            writer.itemFields(sku: sku, description: description, displayName: displayName, price: price)
            writer.pricing(offer: offer, proratedPrice: proratedPrice)
            writer.endObject()
        }
    }

    /// An item of an existing subscription replaced by another.
    public struct ChangeItem: Codable, Hashable, Sendable {
        /// The new item's SKU.
        public var sku: String
        /// The SKU being replaced.
        public var currentSKU: String
        public var description: String
        public var displayName: String
        public var price: Int64
        public var effective: Effective
        public var reason: ChangeReason
        public var offer: Offer?
        public var proratedPrice: Int64?

        public init(
            sku: String, currentSKU: String, description: String, displayName: String, price: Int64,
            effective: Effective, reason: ChangeReason, offer: Offer? = nil, proratedPrice: Int64? = nil
        ) {
            self.sku = sku
            self.currentSKU = currentSKU
            self.description = description
            self.displayName = displayName
            self.price = price
            self.effective = effective
            self.reason = reason
            self.offer = offer
            self.proratedPrice = proratedPrice
        }

        enum CodingKeys: String, CodingKey {
            case sku = "SKU"
            case currentSKU, description, displayName, price, effective, reason, offer, proratedPrice
        }

        func validate() throws(RequestValidationError) {
            try Check.itemFields(sku: sku, description: description, displayName: displayName, price: price)
            try Check.pricing(offer: offer, proratedPrice: proratedPrice)
            try Check.text(currentSKU, "currentSKU", maximum: AdvancedCommerce.skuMaximum)
        }

        func write(into writer: inout JSONWriter) {
            writer.beginObject()
            writer.member("SKU", sku)
            writer.member("currentSKU", currentSKU)
            writer.member("description", description)
            writer.member("displayName", displayName)
            writer.member("price", price)
            writer.member("effective", effective.rawValue)
            writer.member("reason", reason.rawValue)
            writer.pricing(offer: offer, proratedPrice: proratedPrice)
            writer.endObject()
        }
    }

    /// An item named by its SKU alone: removed from, or reactivated in, a subscription.
    public struct SKUItem: Codable, Hashable, Sendable {
        public var sku: String

        public init(sku: String) { self.sku = sku }

        enum CodingKeys: String, CodingKey { case sku = "SKU" }

        func validate() throws(RequestValidationError) {
            try Check.text(sku, "SKU", maximum: AdvancedCommerce.skuMaximum)
        }

        func write(into writer: inout JSONWriter) {
            writer.beginObject()
            writer.member("SKU", sku)
            writer.endObject()
        }
    }
}

extension Check {
    /// The fields every priced item has.
    static func itemFields(sku: String, description: String, displayName: String, price: Int64)
        throws(RequestValidationError)
    {
        try text(sku, "SKU", maximum: AdvancedCommerce.skuMaximum)
        try text(description, "description", maximum: AdvancedCommerce.descriptionMaximum)
        try text(displayName, "displayName", maximum: AdvancedCommerce.displayNameMaximum)
        try nonNegative(price, "price")
    }

    /// An item's optional offer and prorated price.
    static func pricing(offer: AdvancedCommerce.Offer?, proratedPrice: Int64?) throws(RequestValidationError) {
        if let offer { try nested("offer") { () throws(RequestValidationError) in try offer.validate() } }
        if let proratedPrice { try nonNegative(proratedPrice, "proratedPrice") }
    }
}

extension JSONWriter {
    mutating func itemFields(sku: String, description: String, displayName: String, price: Int64) {
        member("SKU", sku)
        member("description", description)
        member("displayName", displayName)
        member("price", price)
    }

    mutating func pricing(offer: AdvancedCommerce.Offer?, proratedPrice: Int64?) {
        object("offer", offer) { $0.write(into: &$1) }
        if let proratedPrice { member("proratedPrice", proratedPrice) }
    }
}
