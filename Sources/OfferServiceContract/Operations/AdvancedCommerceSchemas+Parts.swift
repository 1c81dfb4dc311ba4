import OfferSigning

extension AdvancedCommerceSchemas {
    package static let requestInfo = JSONSchema.object(
        [
            .init(
                "requestReferenceId",
                .string(
                    StringRules(format: .uuid), description: "A UUID you generate for this request.",
                    example: "f55df048-4cd8-4261-b404-b6f813ff70e5")),
            .init(
                "appAccountToken",
                .string(
                    StringRules(format: .uuid), description: "The customer's app account token, if your app uses one.",
                    example: "e3b1c9a2-5f4d-4c8e-9a7b-1d2e3f4a5b6c"), required: false),
            .init(
                "consistencyToken",
                .string(
                    .identifier(maxLength: AdvancedCommerce.consistencyTokenMaximum),
                    description: """
                        The `advancedCommerceConsistencyToken` from the subscription's latest renewal info, passed \
                        through unchanged (at most \(AdvancedCommerce.consistencyTokenMaximum) characters).
                        """), required: false),
        ], description: "Metadata every Advanced Commerce request carries."
    ).named("AdvancedCommerceRequestInfo")

    package static let offer = JSONSchema.object(
        [
            .init("period", offerPeriod),
            .init("periodCount", periodCount),
            .init(
                "price",
                .integer(
                    minimum: 0, maximum: Int64.max,
                    description: "The discounted price per period, in milli-units of the currency.", example: 990)),
            .init("reason", offerReason),
        ], description: "A discount offer on a subscription item."
    ).named("AdvancedCommerceOffer")

    package static let oneTimeChargeItem = JSONSchema.object(
        itemFields, description: "The product of a one-time charge."
    ).named("AdvancedCommerceOneTimeChargeItem")

    package static let subscriptionItem = JSONSchema.object(
        itemFields + [.init("offer", offer, required: false)],
        description: "An item of a new subscription, optionally with a discount offer."
    ).named("AdvancedCommerceSubscriptionItem")

    package static let addItem = JSONSchema.object(
        itemFields + [.init("offer", offer, required: false), .init("proratedPrice", proratedPrice, required: false)],
        description: "An item added to an existing subscription."
    ).named("AdvancedCommerceAddItem")

    package static let changeItem = JSONSchema.object(
        [
            .init("SKU", sku), .init("currentSKU", currentSKU), .init("description", descriptionText),
            .init("displayName", displayName), .init("price", price), .init("effective", effective),
            .init("reason", changeReason), .init("offer", offer, required: false),
            .init("proratedPrice", proratedPrice, required: false),
        ], description: "An item of an existing subscription replaced by another (`SKU` replaces `currentSKU`)."
    ).named("AdvancedCommerceChangeItem")

    package static let skuItem = JSONSchema.object(
        [.init("SKU", sku)], description: "An item named by its SKU alone."
    ).named("AdvancedCommerceSKUItem")

    package static let descriptors = JSONSchema.object(
        [.init("description", descriptionText), .init("displayName", displayName)],
        description: "The name and description of a subscription."
    ).named("AdvancedCommerceDescriptors")

    package static let modifyDescriptors = JSONSchema.object(
        [
            .init("effective", effective), .init("description", descriptionText, required: false),
            .init("displayName", displayName, required: false),
        ], description: "A change of a subscription's name or description."
    ).named("AdvancedCommerceModifyDescriptors")

    package static let periodChange = JSONSchema.object(
        [.init("effective", effective), .init("period", period)],
        description: "A change of a subscription's billing period."
    ).named("AdvancedCommercePeriodChange")

    /// The fields every priced item has.
    private static var itemFields: [JSONSchema.Property] {
        [
            .init("SKU", sku), .init("description", descriptionText), .init("displayName", displayName),
            .init("price", price),
        ]
    }
}
