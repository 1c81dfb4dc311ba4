import OfferJSON

extension AdvancedCommerce {
    /// `MODIFY_SUBSCRIPTION`: a customer changes a subscription (upgrade, downgrade, add or
    /// remove items, change period or descriptors).
    public struct SubscriptionModifyInAppRequest: Codable, Hashable, Sendable {
        public var requestInfo: RequestInfo
        /// The subscription's transaction ID.
        public var transactionId: String
        /// Whether the billing cycle stays as it is.
        public var retainBillingCycle: Bool
        public var addItems: [AddItem]?
        public var changeItems: [ChangeItem]?
        public var removeItems: [SKUItem]?
        public var periodChange: PeriodChange?
        public var descriptors: ModifyDescriptors?
        public var currency: String?
        public var taxCode: String?
        public var storefront: String?

        public init(
            requestInfo: RequestInfo, transactionId: String, retainBillingCycle: Bool, addItems: [AddItem]? = nil,
            changeItems: [ChangeItem]? = nil, removeItems: [SKUItem]? = nil, periodChange: PeriodChange? = nil,
            descriptors: ModifyDescriptors? = nil, currency: String? = nil, taxCode: String? = nil,
            storefront: String? = nil
        ) {
            self.requestInfo = requestInfo
            self.transactionId = transactionId
            self.retainBillingCycle = retainBillingCycle
            self.addItems = addItems
            self.changeItems = changeItems
            self.removeItems = removeItems
            self.periodChange = periodChange
            self.descriptors = descriptors
            self.currency = currency
            self.taxCode = taxCode
            self.storefront = storefront
        }

        func validate() throws(RequestValidationError) {
            try Check.nested("requestInfo") { () throws(RequestValidationError) in try requestInfo.validate() }
            try Check.text(transactionId, "transactionId", maximum: AdvancedCommerce.transactionIdMaximum)
            try Check.optionalList(addItems, "addItems", maximum: AdvancedCommerce.itemsMaximum) {
                (item) throws(RequestValidationError) in try item.validate()
            }
            try Check.optionalList(changeItems, "changeItems", maximum: AdvancedCommerce.itemsMaximum) {
                (item) throws(RequestValidationError) in
                try item.validate()
            }
            try Check.optionalList(removeItems, "removeItems", maximum: AdvancedCommerce.itemsMaximum) {
                (item) throws(RequestValidationError) in
                try item.validate()
            }
            if let descriptors {
                try Check.nested("descriptors") { () throws(RequestValidationError) in try descriptors.validate() }
            }
            try Check.currency(currency)
            try Check.optionalText(taxCode, "taxCode", maximum: AdvancedCommerce.taxCodeMaximum)
            try Check.storefront(storefront)
        }

        func writeFields(into writer: inout JSONWriter) {
            writer.member("transactionId", transactionId)
            writer.member("retainBillingCycle", retainBillingCycle)
            writer.array("addItems", addItems) { $0.write(into: &$1) }
            writer.array("changeItems", changeItems) { $0.write(into: &$1) }
            writer.array("removeItems", removeItems) { $0.write(into: &$1) }
            writer.object("periodChange", periodChange) { $0.write(into: &$1) }
            writer.object("descriptors", descriptors) { $0.write(into: &$1) }
            writer.member("currency", currency)
            writer.member("taxCode", taxCode)
            writer.member("storefront", storefront)
        }
    }
}
