import OfferJSON

/// Advanced Commerce API in-app requests: the four operations an app sends through StoreKit,
/// authorised by a compact JWS whose `request` claim carries the request JSON.
///
/// Field names, enums and limits follow Apple's Advanced Commerce API documentation and
/// Apple's App Store Server libraries. The JSON that OfferKit signs has a fixed member order
/// (`operation`, `version`, `requestInfo`, then the fields in the order they are declared here),
/// so the same request always yields the same bytes.
public enum AdvancedCommerce {
    /// Maximum length of `description` (UTF-16 code units).
    public static let descriptionMaximum = 45
    /// Maximum length of `displayName` (UTF-16 code units).
    public static let displayNameMaximum = 30
    /// Maximum length of a `SKU` or `currentSKU`.
    public static let skuMaximum = 128
    /// Allowed range of `offer.periodCount`.
    public static let periodCountRange = 1...12
}

/// A string enum of Apple's values, read in any case (``EnumeratedValue``) and signed in Apple's
/// spelling; its decoding error shows the value (bounded) and lists the allowed values.
protocol AllowedValues: EnumeratedValue, Codable {}

extension AllowedValues {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(String.self)
        guard let match = Self(anyCase: value) else {
            let allowed = Self.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\(EnumeratedSpelling.shown(value)) is not allowed: expected one of \(allowed) "
                    + "(in any case)")
        }
        self = match
    }
}

extension AdvancedCommerce {
    /// A subscription's billing period.
    public enum Period: String, AllowedValues {
        case oneWeek = "P1W"
        case oneMonth = "P1M"
        case twoMonths = "P2M"
        case threeMonths = "P3M"
        case sixMonths = "P6M"
        case oneYear = "P1Y"
    }

    /// The period of a discount offer.
    public enum OfferPeriod: String, AllowedValues {
        case threeDays = "P3D"
        case oneWeek = "P1W"
        case twoWeeks = "P2W"
        case oneMonth = "P1M"
        case twoMonths = "P2M"
        case threeMonths = "P3M"
        case sixMonths = "P6M"
        case nineMonths = "P9M"
        case oneYear = "P1Y"
    }

    /// Why an offer is given.
    public enum OfferReason: String, AllowedValues {
        case acquisition = "ACQUISITION"
        case winBack = "WIN_BACK"
        case retention = "RETENTION"
    }

    /// Why an item of a subscription changes.
    public enum ChangeReason: String, AllowedValues {
        case upgrade = "UPGRADE"
        case downgrade = "DOWNGRADE"
        case applyOffer = "APPLY_OFFER"
    }

    /// When a change takes effect.
    public enum Effective: String, AllowedValues {
        case immediately = "IMMEDIATELY"
        case nextBillCycle = "NEXT_BILL_CYCLE"
    }

    /// The `operation` of each in-app request.
    public enum Operation: String, AllowedValues {
        case createOneTimeCharge = "CREATE_ONE_TIME_CHARGE"
        case createSubscription = "CREATE_SUBSCRIPTION"
        case modifySubscription = "MODIFY_SUBSCRIPTION"
        case reactivateSubscription = "REACTIVATE_SUBSCRIPTION"
    }
}
