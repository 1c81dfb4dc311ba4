import OfferCodes

/// Campaigns for the request planner tests, built with the public model initializers.
enum PlannerFixtures {
    static let app = CampaignApp(bundleId: "com.example.offerkit.demo", appAppleId: "1234567890")

    static func date(_ text: String) -> CalendarDate { CalendarDate(text)! }

    /// The campaign-format example, trimmed: a subscription offer and a consumable offer.
    static let spring = Campaign(
        name: "spring-2027", app: app,
        offers: [
            OfferDefinition(
                referenceName: "Spring 2027 half price, 3 months",
                product: ProductReference(
                    id: "6450000001", productId: "com.example.offerkit.monthly", type: .autoRenewableSubscription),
                paymentMode: .payAsYouGo, duration: .oneMonth, numberOfPeriods: 3,
                customerEligibilities: [.new, .expired], offerEligibility: .stackWithIntroOffers,
                autoRenewEnabled: true, targetSubscriptionPlanType: .monthly,
                prices: [
                    TerritoryPrice(
                        territory: "USA", pricePoint: "eyJzIjoiNjQ1MDAwMDAwMSIsInQiOiJVU0EiLCJwIjoiMTAwMDIifQ"),
                    TerritoryPrice(
                        territory: "JPN", pricePoint: "eyJzIjoiNjQ1MDAwMDAwMSIsInQiOiJKUE4iLCJwIjoiMTAwMDIifQ"),
                ],
                oneTimeUseCodes: [
                    OneTimeUseBatch(count: 500, expirationDate: date("2027-06-30"), environment: .production)
                ],
                customCodes: [
                    CustomCodeBatch(
                        source: .given(["SPRING27"]), redemptionLimit: 10_000, expirationDate: date("2027-05-31"))
                ]),
            OfferDefinition(
                referenceName: "Gem pack launch",
                product: ProductReference(
                    id: "6450000009", productId: "com.example.offerkit.gems100", type: .consumable),
                paymentMode: .oneTime, customerEligibilities: [.nonSpender, .churnedSpender],
                prices: [
                    TerritoryPrice(territory: "USA", pricePoint: nil),
                    TerritoryPrice(
                        territory: "GBR", pricePoint: "eyJzIjoiNjQ1MDAwMDAwOSIsInQiOiJHQlIiLCJwIjoiMTAwMDEifQ"),
                ],
                oneTimeUseCodes: [OneTimeUseBatch(count: 100, expirationDate: date("2027-04-30"))],
                customCodes: [CustomCodeBatch(source: .given(["GEMS27", "GEMSVIP"]), redemptionLimit: 50)]),
        ])

    /// Every product type and payment mode; free and priced territories; sandbox, production
    /// and default environments; given and generated custom codes with and without expiry.
    static let everyKind = Campaign(
        name: "every-kind", app: app,
        offers: [
            OfferDefinition(
                referenceName: "Free week",
                product: ProductReference(
                    id: "6450000001", productId: "com.example.offerkit.monthly", type: .autoRenewableSubscription),
                paymentMode: .freeTrial, duration: .oneWeek, customerEligibilities: [.new],
                offerEligibility: .replaceIntroOffers,
                prices: [
                    TerritoryPrice(territory: "USA", pricePoint: nil),
                    TerritoryPrice(territory: "JPN", pricePoint: nil),
                ],
                oneTimeUseCodes: [
                    OneTimeUseBatch(count: 50, expirationDate: date("2027-03-31"), environment: .sandbox)
                ],
                customCodes: [CustomCodeBatch(source: .given(["TRYFREE"]), redemptionLimit: 100)]),
            OfferDefinition(
                referenceName: "Half price, 3 months",
                product: ProductReference(
                    id: "6450000001", productId: "com.example.offerkit.monthly", type: .autoRenewableSubscription),
                paymentMode: .payAsYouGo, duration: .oneMonth, numberOfPeriods: 3,
                customerEligibilities: [.new, .existing, .expired], offerEligibility: .stackWithIntroOffers,
                autoRenewEnabled: false, targetSubscriptionPlanType: .monthly,
                prices: [
                    TerritoryPrice(territory: "USA", pricePoint: "eyJwIjoiVVNBLTQ5OSJ9"),
                    TerritoryPrice(territory: "GBR", pricePoint: "eyJwIjoiR0JSLTQ5OSJ9"),
                ],
                oneTimeUseCodes: [
                    OneTimeUseBatch(count: 500, expirationDate: date("2027-06-30"), environment: .production),
                    OneTimeUseBatch(count: 20, expirationDate: date("2027-02-28")),
                ],
                customCodes: [
                    CustomCodeBatch(
                        source: .generated(CodeGenerationSpec(count: 3, prefix: "VIP", length: 8)), redemptionLimit: 1,
                        expirationDate: date("2027-12-31")),
                    CustomCodeBatch(source: .given(["HALF3", "HALFOFF"]), redemptionLimit: 1000),
                ]),
            OfferDefinition(
                referenceName: "Six months up front",
                product: ProductReference(
                    id: "6450000002", productId: "com.example.offerkit.yearly", type: .autoRenewableSubscription),
                paymentMode: .payUpFront, duration: .sixMonths, customerEligibilities: [.existing],
                offerEligibility: .stackWithIntroOffers, autoRenewEnabled: true, targetSubscriptionPlanType: .upfront,
                prices: [TerritoryPrice(territory: "USA", pricePoint: "eyJwIjoiVVNBLTI5OTkifQ")]),
            OfferDefinition(
                referenceName: "Gems for lapsed spenders",
                product: ProductReference(
                    id: "6450000009", productId: "com.example.offerkit.gems100", type: .consumable),
                paymentMode: .oneTime, customerEligibilities: [.nonSpender, .churnedSpender],
                prices: [
                    TerritoryPrice(territory: "USA", pricePoint: nil),
                    TerritoryPrice(territory: "GBR", pricePoint: "eyJwIjoiR0JSLTA5OSJ9"),
                ],
                oneTimeUseCodes: [OneTimeUseBatch(count: 100, expirationDate: date("2027-04-30"))],
                customCodes: [
                    CustomCodeBatch(
                        source: .given(["GEMS27"]), redemptionLimit: 250, expirationDate: date("2027-09-30"))
                ]),
            OfferDefinition(
                referenceName: "Pro unlock",
                product: ProductReference(
                    id: "6450000010", productId: "com.example.offerkit.pro", type: .nonConsumable),
                paymentMode: .oneTime, customerEligibilities: [.activeSpender],
                prices: [
                    TerritoryPrice(territory: "USA", pricePoint: "eyJwIjoiVVNBLTE5OSJ9"),
                    TerritoryPrice(territory: "DEU", pricePoint: "eyJwIjoiREVVLTE5OSJ9"),
                ],
                oneTimeUseCodes: [
                    OneTimeUseBatch(count: 10, expirationDate: date("2027-05-15"), environment: .sandbox)
                ],
                customCodes: [
                    CustomCodeBatch(
                        source: .generated(CodeGenerationSpec(count: 2, length: 6, alphabet: "ABCDEFGH")),
                        redemptionLimit: 3)
                ]),
            OfferDefinition(
                referenceName: "Season pass on us",
                product: ProductReference(
                    id: "6450000011", productId: "com.example.offerkit.season", type: .nonRenewingSubscription),
                paymentMode: .oneTime, customerEligibilities: [.nonSpender],
                prices: [TerritoryPrice(territory: "CAN", pricePoint: nil)],
                customCodes: [
                    CustomCodeBatch(
                        source: .given(["SEASONPASS"]), redemptionLimit: 5000, expirationDate: date("2027-08-31"))
                ]),
        ])

    /// Stands in for the ledger: the codes "recorded" for each generated batch, derived from the
    /// batch's position and spec so that they differ between batches and never repeat.
    static func ledgerCodes(_ campaign: Campaign) -> (Int, Int) throws -> [String] {
        { offerIndex, batchIndex in
            guard case .generated(let spec) = campaign.offers[offerIndex].customCodes[batchIndex].source else {
                throw LedgerLookupError(offerIndex: offerIndex, batchIndex: batchIndex)
            }
            let alphabet = Array(spec.alphabet)
            return (0..<spec.count).map { codeIndex in
                var value = (offerIndex * 31 + batchIndex) * 1_000 + codeIndex
                var characters: [Character] = []
                for _ in 0..<spec.length {
                    characters.append(alphabet[value % alphabet.count])
                    value /= alphabet.count
                }
                return spec.prefix + String(characters)
            }
        }
    }

    /// The planner asked the ledger for a batch of given codes.
    struct LedgerLookupError: Error, Equatable {
        let offerIndex: Int
        let batchIndex: Int
    }
}
