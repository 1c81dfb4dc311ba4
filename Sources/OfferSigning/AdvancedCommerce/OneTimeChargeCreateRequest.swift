import OfferJSON

extension AdvancedCommerce {
    /// `CREATE_ONE_TIME_CHARGE`: a customer buys a one-time-charge product.
    public struct OneTimeChargeCreateRequest: Codable, Hashable, Sendable {
        public var requestInfo: RequestInfo
        /// ISO 4217 currency code, e.g. `USD`.
        public var currency: String
        /// The tax code for the product, e.g. `C003-00-2`.
        public var taxCode: String
        public var item: OneTimeChargeItem
        /// ISO 3166-1 alpha-3 storefront code, e.g. `USA`.
        public var storefront: String?

        public init(
            requestInfo: RequestInfo, currency: String, taxCode: String, item: OneTimeChargeItem,
            storefront: String? = nil
        ) {
            self.requestInfo = requestInfo
            self.currency = currency
            self.taxCode = taxCode
            self.item = item
            self.storefront = storefront
        }

        func validate() throws(RequestValidationError) {
            try Check.nested("requestInfo") { () throws(RequestValidationError) in try requestInfo.validate() }
            try Check.currency(currency)
            try Check.text(taxCode, "taxCode", maximum: AdvancedCommerce.taxCodeMaximum)
            try Check.nested("item") { () throws(RequestValidationError) in try item.validate() }
            try Check.storefront(storefront)
        }

        func writeFields(into writer: inout JSONWriter) {
            writer.member("currency", currency)
            writer.member("taxCode", taxCode)
            writer.key("item")
            item.write(into: &writer)
            writer.member("storefront", storefront)
        }
    }
}

extension Check {
    static func currency(_ value: String?, _ field: String = "currency") throws(RequestValidationError) {
        if let value { try upperLetters(value, field, count: 3, meaning: "an ISO 4217 currency code such as USD") }
    }

    static func storefront(_ value: String?) throws(RequestValidationError) {
        if let value {
            try upperLetters(value, "storefront", count: 3, meaning: "an ISO 3166-1 alpha-3 code such as USA")
        }
    }
}
