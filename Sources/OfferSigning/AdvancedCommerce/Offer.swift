import OfferJSON

extension AdvancedCommerce {
    /// A discount offer on a subscription item.
    public struct Offer: Codable, Hashable, Sendable {
        public var period: OfferPeriod
        /// How many periods the offer lasts: 1 to 12.
        public var periodCount: Int
        /// The discounted price in milli-units of the currency.
        public var price: Int64
        public var reason: OfferReason

        public init(period: OfferPeriod, periodCount: Int, price: Int64, reason: OfferReason) {
            self.period = period
            self.periodCount = periodCount
            self.price = price
            self.reason = reason
        }

        func validate() throws(RequestValidationError) {
            guard AdvancedCommerce.periodCountRange.contains(periodCount) else {
                throw .outOfRange(field: "periodCount", expected: "an integer from 1 to 12")
            }
            try Check.nonNegative(price, "price")
        }

        func write(into writer: inout JSONWriter) {
            writer.beginObject()
            writer.member("period", period.rawValue)
            writer.member("periodCount", periodCount)
            writer.member("price", price)
            writer.member("reason", reason.rawValue)
            writer.endObject()
        }
    }

    /// The name and description of a subscription.
    public struct Descriptors: Codable, Hashable, Sendable {
        public var description: String
        public var displayName: String

        public init(description: String, displayName: String) {
            self.description = description
            self.displayName = displayName
        }

        func validate() throws(RequestValidationError) {
            try Check.text(description, "description", maximum: AdvancedCommerce.descriptionMaximum)
            try Check.text(displayName, "displayName", maximum: AdvancedCommerce.displayNameMaximum)
        }

        func write(into writer: inout JSONWriter) {
            writer.beginObject()
            writer.member("description", description)
            writer.member("displayName", displayName)
            writer.endObject()
        }
    }

    /// A change of a subscription's name or description.
    public struct ModifyDescriptors: Codable, Hashable, Sendable {
        public var effective: Effective
        public var description: String?
        public var displayName: String?

        public init(effective: Effective, description: String? = nil, displayName: String? = nil) {
            self.effective = effective
            self.description = description
            self.displayName = displayName
        }

        func validate() throws(RequestValidationError) {
            try Check.optionalText(description, "description", maximum: AdvancedCommerce.descriptionMaximum)
            try Check.optionalText(displayName, "displayName", maximum: AdvancedCommerce.displayNameMaximum)
        }

        func write(into writer: inout JSONWriter) {
            writer.beginObject()
            writer.member("effective", effective.rawValue)
            writer.member("description", description)
            writer.member("displayName", displayName)
            writer.endObject()
        }
    }

    /// A change of a subscription's billing period.
    public struct PeriodChange: Codable, Hashable, Sendable {
        public var effective: Effective
        public var period: Period

        public init(effective: Effective, period: Period) {
            self.effective = effective
            self.period = period
        }

        func write(into writer: inout JSONWriter) {
            writer.beginObject()
            writer.member("effective", effective.rawValue)
            writer.member("period", period.rawValue)
            writer.endObject()
        }
    }
}
