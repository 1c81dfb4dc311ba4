import OfferJSON

/// How a customer who redeems a code pays: App Store Connect's `offerMode` for subscriptions,
/// and `ONE_TIME` (the server's `offerDiscountType`) for every other product type.
public enum PaymentMode: String, Sendable, CaseIterable, Codable, EnumeratedValue {
    case freeTrial = "FREE_TRIAL"
    case payAsYouGo = "PAY_AS_YOU_GO"
    case payUpFront = "PAY_UP_FRONT"
    case oneTime = "ONE_TIME"
}
