import Foundation
import OfferJSON
import OfferSigning

/// One realistic request of each Advanced Commerce operation, for the OpenAPI document. Each is
/// built with the library's model and written as the library signs it, so the examples cannot
/// drift from what the library accepts.
package enum AdvancedCommerceExamples {
    package static let oneTimeCharge = json(
        .oneTimeCharge(
            .init(
                requestInfo: .init(requestReferenceId: uuid("f55df048-4cd8-4261-b404-b6f813ff70e5")),
                currency: "USD", taxCode: "C003-00-2",
                item: .init(
                    sku: "com.example.tokens.500", description: "500 tokens for the word game",
                    displayName: "500 Tokens", price: 4990),
                storefront: "USA")))

    package static let createSubscription = json(
        .createSubscription(
            .init(
                requestInfo: .init(
                    requestReferenceId: uuid("1b6a6f0e-8a43-4c2b-9d8e-2f0a7c5e4b31"),
                    appAccountToken: uuid("e3b1c9a2-5f4d-4c8e-9a7b-1d2e3f4a5b6c")),
                currency: "USD", taxCode: "C003-00-2",
                descriptors: .init(description: "Monthly news subscription", displayName: "News Monthly"),
                items: [
                    .init(
                        sku: "com.example.news.basic", description: "Every article, monthly",
                        displayName: "News Basic", price: 4990,
                        offer: .init(period: .oneMonth, periodCount: 3, price: 990, reason: .acquisition))
                ],
                period: .oneMonth, storefront: "USA")))

    package static let modifySubscription = json(
        .modifySubscription(
            .init(
                requestInfo: .init(
                    requestReferenceId: uuid("7c2d9e14-3b5a-4f6c-8d7e-9a0b1c2d3e4f"),
                    appAccountToken: uuid("e3b1c9a2-5f4d-4c8e-9a7b-1d2e3f4a5b6c")),
                transactionId: "2000000123456789", retainBillingCycle: true,
                addItems: [
                    .init(
                        sku: "com.example.news.sports", description: "Sports section add-on",
                        displayName: "Sports", price: 1990, proratedPrice: 995)
                ],
                changeItems: [
                    .init(
                        sku: "com.example.news.premium", currentSKU: "com.example.news.basic",
                        description: "Every article and the archive, monthly", displayName: "News Premium",
                        price: 9990, effective: .immediately, reason: .upgrade, proratedPrice: 2500)
                ],
                removeItems: [.init(sku: "com.example.news.puzzles")],
                descriptors: .init(effective: .immediately, displayName: "News Premium"), currency: "USD",
                taxCode: "C003-00-2", storefront: "USA")))

    package static let reactivateSubscription = json(
        .reactivateSubscription(
            .init(
                requestInfo: .init(requestReferenceId: uuid("3e9f5a27-6c1b-4d8a-b2e3-4f5a6b7c8d9e")),
                transactionId: "2000000123456789", items: [.init(sku: "com.example.news.premium")],
                storefront: "USA")))

    /// The request as the library writes it for signing.
    private static func json(_ request: AdvancedCommerce.InAppRequest) -> JSONValue {
        (try? JSONValue.parse(request.jsonBytes)) ?? .null
    }

    private static func uuid(_ text: String) -> UUID {
        guard let uuid = UUID(uuidString: text) else { preconditionFailure("\(text) is not a UUID") }
        return uuid
    }
}
