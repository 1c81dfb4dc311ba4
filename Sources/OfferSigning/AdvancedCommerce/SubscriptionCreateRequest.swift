import OfferJSON

extension AdvancedCommerce {
    /// `CREATE_SUBSCRIPTION`: a customer subscribes.
    public struct SubscriptionCreateRequest: Codable, Hashable, Sendable {
        public var requestInfo: RequestInfo
        public var currency: String
        public var taxCode: String
        public var descriptors: Descriptors
        /// The subscription's items (at least one).
        public var items: [SubscriptionItem]
        public var period: Period
        /// The previous subscription's transaction ID, when the customer subscribes again.
        public var previousTransactionId: String?
        public var storefront: String?

        public init(
            requestInfo: RequestInfo, currency: String, taxCode: String, descriptors: Descriptors,
            items: [SubscriptionItem], period: Period, previousTransactionId: String? = nil, storefront: String? = nil
        ) {
            self.requestInfo = requestInfo
            self.currency = currency
            self.taxCode = taxCode
            self.descriptors = descriptors
            self.items = items
            self.period = period
            self.previousTransactionId = previousTransactionId
            self.storefront = storefront
        }

        func validate() throws(RequestValidationError) {
            try Check.nested("requestInfo") { () throws(RequestValidationError) in try requestInfo.validate() }
            try Check.currency(currency)
            try Check.text(taxCode, "taxCode", maximum: AdvancedCommerce.taxCodeMaximum)
            try Check.nested("descriptors") { () throws(RequestValidationError) in try descriptors.validate() }
            try Check.nonEmptyList(items, "items", maximum: AdvancedCommerce.itemsMaximum) {
                (item) throws(RequestValidationError) in try item.validate()
            }
            try Check.optionalText(
                previousTransactionId, "previousTransactionId", maximum: AdvancedCommerce.transactionIdMaximum)
            try Check.storefront(storefront)
        }

        func writeFields(into writer: inout JSONWriter) {
            writer.member("currency", currency)
            writer.member("taxCode", taxCode)
            writer.key("descriptors")
            descriptors.write(into: &writer)
            writer.array("items", items) { $0.write(into: &$1) }
            writer.member("period", period.rawValue)
            writer.member("previousTransactionId", previousTransactionId)
            writer.member("storefront", storefront)
        }
    }
}
