import OfferJSON

/// App Store Connect's `SubscriptionOfferDuration`: the length of one offer period.
public enum OfferDuration: String, Sendable, CaseIterable, Codable, EnumeratedValue {
    case threeDays = "THREE_DAYS"
    case oneWeek = "ONE_WEEK"
    case twoWeeks = "TWO_WEEKS"
    case oneMonth = "ONE_MONTH"
    case twoMonths = "TWO_MONTHS"
    case threeMonths = "THREE_MONTHS"
    case sixMonths = "SIX_MONTHS"
    case oneYear = "ONE_YEAR"
}
