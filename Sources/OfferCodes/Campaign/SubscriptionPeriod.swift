import OfferJSON

/// How often an auto-renewable subscription renews: App Store Connect's `subscriptionPeriod`.
public enum SubscriptionPeriod: String, Sendable, CaseIterable, Codable, EnumeratedValue {
    case oneWeek = "ONE_WEEK"
    case oneMonth = "ONE_MONTH"
    case twoMonths = "TWO_MONTHS"
    case threeMonths = "THREE_MONTHS"
    case sixMonths = "SIX_MONTHS"
    case oneYear = "ONE_YEAR"

    /// The offer duration of the same length (a pay-as-you-go offer's periods are the subscription's).
    public var offerDuration: OfferDuration {
        switch self {
        case .oneWeek: .oneWeek
        case .oneMonth: .oneMonth
        case .twoMonths: .twoMonths
        case .threeMonths: .threeMonths
        case .sixMonths: .sixMonths
        case .oneYear: .oneYear
        }
    }
}
