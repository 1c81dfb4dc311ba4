/// The App Store Connect resources of promotional, introductory and win-back offers (API 4.4.1).
package enum SubscriptionOfferAPI {
    /// `subscriptionPromotionalOffers`, with its inline prices `subscriptionPromotionalOfferPrices`.
    package static let promotionalType = "subscriptionPromotionalOffers"
    package static let promotionalPriceType = "subscriptionPromotionalOfferPrices"
    package static let promotionalSchema = "SubscriptionPromotionalOfferCreateRequest"
    /// `subscriptionIntroductoryOffers`: one resource per territory, its price point a relationship.
    package static let introductoryType = "subscriptionIntroductoryOffers"
    package static let introductorySchema = "SubscriptionIntroductoryOfferCreateRequest"
    /// `winBackOffers`, with its inline prices `winBackOfferPrices`.
    package static let winBackType = "winBackOffers"
    package static let winBackPriceType = "winBackOfferPrices"
    package static let winBackSchema = "WinBackOfferCreateRequest"

    /// The resource type an offer of `kind` creates (`nil` for offer codes, see ``OfferCodeAPI``).
    package static func resourceType(_ kind: CampaignOfferKind) -> String? {
        switch kind {
        case .offerCode: nil
        case .promotionalOffer: promotionalType
        case .introductoryOffer: introductoryType
        case .winBackOffer: winBackType
        }
    }

    /// The list of a subscription's offers of `kind`, to find one after an unknown outcome:
    /// `GET /v1/subscriptions/{id}/promotionalOffers`, `…/introductoryOffers` (with
    /// `filter[territory]`), `…/winBackOffers`.
    package static func listPath(_ kind: CampaignOfferKind, subscriptionId: String) -> String? {
        switch kind {
        case .offerCode: nil
        case .promotionalOffer: "/v1/subscriptions/\(subscriptionId)/promotionalOffers"
        case .introductoryOffer: "/v1/subscriptions/\(subscriptionId)/introductoryOffers"
        case .winBackOffer: "/v1/subscriptions/\(subscriptionId)/winBackOffers"
        }
    }
}
