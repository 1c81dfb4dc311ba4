import Foundation

extension InteropVectorBuilder {
    /// The cases of OfferKit's published interop vectors: at least two per kind, with and
    /// without optional claims, with non-ASCII and JSON-escaped identifiers, and an empty
    /// app account token.
    public static let standardCases: [Case] = {
        let time: Int64 = 1_767_225_600  // 2026-01-01T00:00:00Z
        func nonce(_ text: String) -> UUID { UUID(uuidString: text)! }
        typealias AC = AdvancedCommerce
        let info = AC.RequestInfo(requestReferenceId: nonce("f55df048-4cd8-4261-b404-b6f813ff70e5"))
        let fullInfo = AC.RequestInfo(
            requestReferenceId: nonce("e2a88501-25ba-403a-9c46-d7b8eecc56ba"),
            appAccountToken: nonce("7e3fb20b-4cdb-47cc-936d-99d65f608138"), consistencyToken: "ct-1a2b3c")
        return [
            Case(
                name: "promotional-offer/minimal",
                inputs: .promotionalOffer(
                    .init(productId: "com.example.offerkit.monthly", offerIdentifier: "WINBACK50")),
                nonce: nonce("3f2c6a8e-6a1b-4c5d-9e7f-0a1b2c3d4e5f"), time: time),
            Case(
                name: "promotional-offer/with-transaction-id",
                inputs: .promotionalOffer(
                    .init(
                        productId: "com.example.offerkit.yearly", offerIdentifier: "RETAIN_3M",
                        transactionId: "2000000123456789")),
                nonce: nonce("b7e1c0d2-3a4f-4b6c-8d9e-0f1a2b3c4d5e"), time: time + 1),
            Case(
                name: "promotional-offer/non-ascii-and-escaped",
                inputs: .promotionalOffer(
                    .init(
                        productId: "com.example.offerkit.jährlich_月額", offerIdentifier: "offre \"été\" \\ 50%",
                        transactionId: "700000123")),
                nonce: nonce("0c9d8e7f-6a5b-4c3d-a2e1-f0e9d8c7b6a5"), time: time + 2),
            Case(
                name: "introductory-offer-eligibility/allowed",
                inputs: .introductoryOfferEligibility(
                    .init(
                        productId: "com.example.offerkit.monthly", allowIntroductoryOffer: true,
                        transactionId: "2000000123456789")),
                nonce: nonce("1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"), time: time + 3),
            Case(
                name: "introductory-offer-eligibility/denied-non-ascii",
                inputs: .introductoryOfferEligibility(
                    .init(productId: "com.example.offerkit.年額", allowIntroductoryOffer: false, transactionId: "42")),
                nonce: nonce("9f8e7d6c-5b4a-4938-b7a6-958473625140"), time: time + 4),
            Case(
                name: "advanced-commerce/one-time-charge-minimal",
                inputs: .advancedCommerce(
                    .oneTimeCharge(
                        .init(
                            requestInfo: info, currency: "USD", taxCode: "C003-00-2",
                            item: .init(
                                sku: "BOOK_SHERLOCK_HOLMES", description: "The Sherlock Holmes, 5th Edition",
                                displayName: "Sherlock Holmes", price: 4990)))),
                nonce: nonce("5d4c3b2a-1908-4f7e-8d6c-5b4a39281706"), time: time + 5),
            Case(
                name: "advanced-commerce/one-time-charge-full",
                inputs: .advancedCommerce(
                    .oneTimeCharge(
                        .init(
                            requestInfo: fullInfo, currency: "JPY", taxCode: "C003-00-2",
                            item: .init(
                                sku: "本_シャーロック", description: "シャーロック・ホームズ 第5版",
                                displayName: "シャーロック", price: 500_000),
                            storefront: "JPN"))),
                nonce: nonce("6e5d4c3b-2a19-4807-9f6e-5d4c3b2a1908"), time: time + 6),
            Case(
                name: "advanced-commerce/create-subscription",
                inputs: .advancedCommerce(
                    .createSubscription(
                        .init(
                            requestInfo: fullInfo, currency: "USD", taxCode: "C003-00-2",
                            descriptors: .init(description: "Streaming service", displayName: "Anne's Game Stream"),
                            items: [
                                .init(
                                    sku: "GAME_STREAM_MONTHLY", description: "Game streaming",
                                    displayName: "Game Stream",
                                    price: 9990,
                                    offer: .init(period: .oneMonth, periodCount: 3, price: 4990, reason: .acquisition)),
                                .init(sku: "ADDON_HD", description: "HD add-on", displayName: "HD", price: 1990),
                            ], period: .oneMonth, previousTransactionId: "2000000987654321", storefront: "USA"))),
                nonce: nonce("7f6e5d4c-3b2a-4918-8a7f-6e5d4c3b2a19"), time: time + 7),
            Case(
                name: "advanced-commerce/modify-subscription",
                inputs: .advancedCommerce(
                    .modifySubscription(
                        .init(
                            requestInfo: info, transactionId: "2000000123456789", retainBillingCycle: false,
                            addItems: [
                                .init(
                                    sku: "ADDON_4K", description: "4K add-on", displayName: "4K", price: 2990,
                                    proratedPrice: 1500)
                            ],
                            changeItems: [
                                .init(
                                    sku: "GAME_STREAM_YEARLY", currentSKU: "GAME_STREAM_MONTHLY",
                                    description: "Game streaming, yearly", displayName: "Game Stream Yearly",
                                    price: 99990, effective: .immediately, reason: .upgrade)
                            ], removeItems: [.init(sku: "ADDON_HD")],
                            periodChange: .init(effective: .nextBillCycle, period: .oneYear),
                            descriptors: .init(effective: .immediately, displayName: "Game Stream+"), currency: "USD",
                            taxCode: "C003-00-2", storefront: "USA"))),
                nonce: nonce("8a7f6e5d-4c3b-4a29-9b8a-7f6e5d4c3b2a"), time: time + 8),
            Case(
                name: "advanced-commerce/reactivate-subscription",
                inputs: .advancedCommerce(
                    .reactivateSubscription(.init(requestInfo: info, transactionId: "2000000123456789"))),
                nonce: nonce("9b8a7f6e-5d4c-4b3a-8c9b-8a7f6e5d4c3b"), time: time + 9),
            Case(
                name: "advanced-commerce/reactivate-subscription-items",
                inputs: .advancedCommerce(
                    .reactivateSubscription(
                        .init(
                            requestInfo: fullInfo, transactionId: "2000000123456789",
                            items: [.init(sku: "GAME_STREAM_MONTHLY")], storefront: "DEU"))),
                nonce: nonce("ac9b8a7f-6e5d-4c4b-9d0c-9b8a7f6e5d4c"), time: time + 10),
            Case(
                name: "legacy-promotional-offer/empty-app-account-token",
                inputs: .legacyPromotionalOffer(
                    .init(productId: "com.example.offerkit.monthly", offerIdentifier: "WINBACK50")),
                nonce: nonce("bd0cab9b-8a7f-4e6d-8e1d-ac9b8a7f6e5d"), time: time + 11),
            Case(
                name: "legacy-promotional-offer/upper-case-app-account-token",
                inputs: .legacyPromotionalOffer(
                    .init(
                        productId: "com.example.offerkit.yearly", offerIdentifier: "RETAIN_3M",
                        appAccountToken: "7E3FB20B-4CDB-47CC-936D-99D65F608138")),
                nonce: nonce("ce1dbcac-9b8a-4f7e-9f2e-bdacb9a8f7e6"), time: time + 12),
            Case(
                name: "legacy-promotional-offer/non-ascii",
                inputs: .legacyPromotionalOffer(
                    .init(productId: "com.example.offerkit.jährlich_月額", offerIdentifier: "offre-été")),
                nonce: nonce("df2ecdbd-acb9-4a8f-a03f-cebdcab9a8f7"), time: time + 13),
            Case(
                name: "server-api-token/default-lifetime",
                inputs: .serverAPIToken(lifetime: 300), nonce: nonce("00000000-0000-4000-8000-000000000000"),
                time: time + 14),
            Case(
                name: "server-api-token/maximum-lifetime",
                inputs: .serverAPIToken(lifetime: 3600), nonce: nonce("00000000-0000-4000-8000-000000000000"),
                time: time + 15),
            Case(
                name: "connect-api-token/team-with-scope",
                inputs: .connectAPIToken(
                    lifetime: 900, scope: ["GET /v1/apps?filter[platform]=IOS", "POST /v1/subscriptionOfferCodes"],
                    individual: false), nonce: nonce("00000000-0000-4000-8000-000000000000"), time: time + 16),
            Case(
                name: "connect-api-token/individual",
                inputs: .connectAPIToken(lifetime: 1200, scope: [], individual: true),
                nonce: nonce("00000000-0000-4000-8000-000000000000"), time: time + 17),
        ]
    }()
}
