import OfferJSON

/// Whether a subscription offer code stacks with an introductory offer or replaces it
/// (App Store Connect's `SubscriptionOfferEligibility`).
public enum OfferEligibility: String, Sendable, CaseIterable, Codable, EnumeratedValue {
    case stackWithIntroOffers = "STACK_WITH_INTRO_OFFERS"
    case replaceIntroOffers = "REPLACE_INTRO_OFFERS"
}

/// App Store Connect's `SubscriptionPlanType`, for `targetSubscriptionPlanType`.
public enum SubscriptionPlanType: String, Sendable, CaseIterable, Codable, EnumeratedValue {
    case monthly = "MONTHLY"
    case upfront = "UPFRONT"
}

/// Where one-time-use codes can be redeemed (App Store Connect's `OfferCodeEnvironment`).
public enum CodeEnvironment: String, Sendable, CaseIterable, Codable, EnumeratedValue {
    case production = "PRODUCTION"
    case sandbox = "SANDBOX"
}
