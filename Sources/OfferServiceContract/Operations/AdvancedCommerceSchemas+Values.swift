import OfferSigning

extension AdvancedCommerceSchemas {
    // MARK: Enumerations (from the library's enums)

    package static let period = JSONSchema.enumeration(
        AdvancedCommerce.Period.allCases.map(\.rawValue),
        description: "A subscription's billing period, as an ISO 8601 duration."
    ).named("AdvancedCommercePeriod")

    package static let offerPeriod = JSONSchema.enumeration(
        AdvancedCommerce.OfferPeriod.allCases.map(\.rawValue),
        description: "How long one period of a discount offer lasts, as an ISO 8601 duration."
    ).named("AdvancedCommerceOfferPeriod")

    package static let offerReason = JSONSchema.enumeration(
        AdvancedCommerce.OfferReason.allCases.map(\.rawValue), description: "Why a discount offer is given."
    ).named("AdvancedCommerceOfferReason")

    package static let changeReason = JSONSchema.enumeration(
        AdvancedCommerce.ChangeReason.allCases.map(\.rawValue), description: "Why an item of a subscription changes."
    ).named("AdvancedCommerceChangeReason")

    package static let effective = JSONSchema.enumeration(
        AdvancedCommerce.Effective.allCases.map(\.rawValue),
        description: "When a change takes effect: now, or at the next renewal."
    ).named("AdvancedCommerceEffective")

    // MARK: Strings and numbers (the library's limits)

    package static let currency = JSONSchema.string(
        StringRules(format: .alpha3),
        description: """
            The ISO 4217 currency code of the prices: exactly three upper-case letters A–Z, such as `USD` (anything \
            else is refused with `invalid-field`).
            """, example: "USD")

    package static let storefront = JSONSchema.string(
        StringRules(format: .alpha3),
        description: """
            The storefront, as an ISO 3166-1 alpha-3 code: exactly three upper-case letters A–Z, such as `USA` \
            (anything else is refused with `invalid-field`).
            """, example: "USA")

    package static let taxCode = JSONSchema.string(
        .identifier(maxLength: AdvancedCommerce.taxCodeMaximum),
        description: """
            The product's tax code from Apple's list of Advanced Commerce tax codes (at most \
            \(AdvancedCommerce.taxCodeMaximum) characters).
            """, example: "C003-00-2")

    package static let sku = JSONSchema.string(
        .identifier(maxLength: AdvancedCommerce.skuMaximum),
        description: "Your identifier of the product, at most \(AdvancedCommerce.skuMaximum) characters \(utf16Note).",
        example: "com.example.news.premium")

    package static let currentSKU = JSONSchema.string(
        .identifier(maxLength: AdvancedCommerce.skuMaximum),
        description:
            "The SKU of the item being replaced, at most \(AdvancedCommerce.skuMaximum) characters \(utf16Note).",
        example: "com.example.news.basic")

    package static let descriptionText = JSONSchema.string(
        .identifier(maxLength: AdvancedCommerce.descriptionMaximum),
        description: """
            A description for your records that customers do not see, at most \
            \(AdvancedCommerce.descriptionMaximum) characters \(utf16Note).
            """, example: "Monthly access to every premium article")

    package static let displayName = JSONSchema.string(
        .identifier(maxLength: AdvancedCommerce.displayNameMaximum),
        description: """
            The name customers see on the payment sheet and in their subscriptions, at most \
            \(AdvancedCommerce.displayNameMaximum) characters \(utf16Note).
            """, example: "News Premium")

    package static let price = JSONSchema.integer(
        minimum: 0, maximum: Int64.max,
        description: "The price in milli-units of the currency: 4990 is 4.99.", example: 4990)

    package static let proratedPrice = JSONSchema.integer(
        minimum: 0, maximum: Int64.max,
        description: "The price for the rest of the current billing period, in milli-units of the currency.",
        example: 2495)

    package static let periodCount = JSONSchema.integer(
        minimum: Int64(AdvancedCommerce.periodCountRange.lowerBound),
        maximum: Int64(AdvancedCommerce.periodCountRange.upperBound),
        description: "How many periods the offer lasts.", example: 3)

    /// How lengths are counted: JSON Schema counts code points, the library (like Apple's Java and
    /// Node libraries) counts UTF-16 code units, which is stricter for characters outside the BMP.
    private static let utf16Note = """
        (counted in UTF-16 code units: a character outside the Basic Multilingual Plane, such as an emoji, counts \
        as two; JSON Schema's `maxLength` counts it as one, so such text can pass the schema and still be refused \
        with `invalid-field`)
        """
}
