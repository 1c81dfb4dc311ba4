import OfferSigning

/// The schemas of the four Advanced Commerce in-app requests, built from the library's enums and
/// limits (`AdvancedCommerce`) so that what the schema accepts, the library decodes and validates.
///
/// One rule of the library cannot be stated in JSON Schema and is checked by the library after the
/// schema: text lengths count UTF-16 code units (JSON Schema counts code points, so a character
/// outside the Basic Multilingual Plane, such as an emoji, counts twice). It is refused as
/// `invalid-field` with the same `request.…` path.
package enum AdvancedCommerceSchemas {
    /// Any of the four requests, chosen by `operation`.
    package static let inAppRequest = JSONSchema(
        .oneOf(
            [oneTimeCharge, createSubscription, modifySubscription, reactivateSubscription], discriminator: "operation"),
        description: """
            An Advanced Commerce in-app request: the JSON your app would otherwise build, chosen by `operation`. \
            It is signed, base64-encoded, into the JWS's `request` claim with the members in a fixed order.
            """
    ).named("AdvancedCommerceInAppRequest")

    package static let oneTimeCharge = JSONSchema.object(
        header(.createOneTimeCharge) + [
            .init("currency", currency), .init("taxCode", taxCode), .init("item", oneTimeChargeItem),
            .init("storefront", storefront, required: false),
        ], description: "`CREATE_ONE_TIME_CHARGE`: a customer buys a one-time-charge product."
    ).named("AdvancedCommerceOneTimeChargeRequest").example(AdvancedCommerceExamples.oneTimeCharge)

    package static let createSubscription = JSONSchema.object(
        header(.createSubscription) + [
            .init("currency", currency), .init("taxCode", taxCode), .init("descriptors", descriptors),
            .init("items", items(of: subscriptionItem, "The subscription's items.")),
            .init("period", period),
            .init(
                "previousTransactionId",
                .string(
                    .identifier(maxLength: AdvancedCommerce.transactionIdMaximum),
                    description: """
                        The transaction ID of the customer's previous subscription, when they subscribe again (at most \
                        \(AdvancedCommerce.transactionIdMaximum) characters).
                        """,
                    example: "2000000123456789"), required: false),
            .init("storefront", storefront, required: false),
        ], description: "`CREATE_SUBSCRIPTION`: a customer subscribes."
    ).named("AdvancedCommerceSubscriptionCreateRequest").example(AdvancedCommerceExamples.createSubscription)

    package static let modifySubscription = JSONSchema.object(
        header(.modifySubscription) + [
            .init("transactionId", subscriptionTransactionId),
            .init(
                "retainBillingCycle",
                .boolean(description: "Whether the subscription keeps its billing cycle.", example: true)),
            .init("addItems", items(of: addItem, "Items to add."), required: false),
            .init("changeItems", items(of: changeItem, "Items to replace."), required: false),
            .init("removeItems", items(of: skuItem, "Items to remove."), required: false),
            .init("periodChange", periodChange, required: false),
            .init("descriptors", modifyDescriptors, required: false),
            .init("currency", currency, required: false),
            .init("taxCode", taxCode, required: false),
            .init("storefront", storefront, required: false),
        ],
        description: """
            `MODIFY_SUBSCRIPTION`: a customer changes a subscription (upgrade, downgrade, add or remove items, \
            change the period or the descriptors).
            """
    ).named("AdvancedCommerceSubscriptionModifyRequest").example(AdvancedCommerceExamples.modifySubscription)

    package static let reactivateSubscription = JSONSchema.object(
        header(.reactivateSubscription) + [
            .init("transactionId", subscriptionTransactionId),
            .init(
                "items", items(of: skuItem, "The items to reactivate; all of them when left out."), required: false),
            .init("storefront", storefront, required: false),
        ], description: "`REACTIVATE_SUBSCRIPTION`: a customer turns auto-renewal of a subscription back on."
    ).named("AdvancedCommerceSubscriptionReactivateRequest").example(AdvancedCommerceExamples.reactivateSubscription)

    /// `operation`, `version` and `requestInfo`, which every request starts with.
    private static func header(_ operation: AdvancedCommerce.Operation) -> [JSONSchema.Property] {
        [
            .init("operation", .enumeration([operation.rawValue], description: "The kind of request.")),
            .init(
                "version",
                .enumeration(
                    [AdvancedCommerce.InAppRequest.version],
                    description: "The request format's version; \"1\", also when left out."),
                required: false),
            .init("requestInfo", requestInfo),
        ]
    }

    private static let subscriptionTransactionId = JSONSchema.string(
        .identifier(maxLength: AdvancedCommerce.transactionIdMaximum),
        description: "The subscription's transaction ID (at most \(AdvancedCommerce.transactionIdMaximum) characters).",
        example: "2000000123456789")

    /// A list of 1 to ``AdvancedCommerce/itemsMaximum`` items of `schema`.
    private static func items(of schema: JSONSchema, _ description: String) -> JSONSchema {
        .array(
            of: schema, minItems: 1, maxItems: AdvancedCommerce.itemsMaximum,
            description: "\(description) At most \(AdvancedCommerce.itemsMaximum) (OfferKit's bound: Apple limits the "
                + "items of a request without publishing the number).")
    }
}
