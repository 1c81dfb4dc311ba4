import OfferJSON

extension AdvancedCommerce {
    /// `REACTIVATE_SUBSCRIPTION`: a customer turns auto-renewal back on.
    public struct SubscriptionReactivateInAppRequest: Codable, Hashable, Sendable {
        public var requestInfo: RequestInfo
        /// The subscription's transaction ID.
        public var transactionId: String
        /// The items to reactivate; all of them when absent.
        public var items: [SKUItem]?
        public var storefront: String?

        public init(requestInfo: RequestInfo, transactionId: String, items: [SKUItem]? = nil, storefront: String? = nil)
        {
            self.requestInfo = requestInfo
            self.transactionId = transactionId
            self.items = items
            self.storefront = storefront
        }

        func validate() throws(RequestValidationError) {
            try Check.nested("requestInfo") { () throws(RequestValidationError) in try requestInfo.validate() }
            try Check.text(transactionId, "transactionId", maximum: AdvancedCommerce.transactionIdMaximum)
            try Check.optionalList(items, "items", maximum: AdvancedCommerce.itemsMaximum) {
                (item) throws(RequestValidationError) in try item.validate()
            }
            try Check.storefront(storefront)
        }

        func writeFields(into writer: inout JSONWriter) {
            writer.member("transactionId", transactionId)
            writer.array("items", items) { $0.write(into: &$1) }
            writer.member("storefront", storefront)
        }
    }
}
