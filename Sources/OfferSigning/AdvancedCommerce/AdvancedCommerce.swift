import OfferJSON

/// Advanced Commerce API in-app requests: the four operations an app sends through StoreKit,
/// authorised by a compact JWS whose `request` claim carries the request JSON.
///
/// Field names, enums and limits follow Apple's Advanced Commerce API documentation and
/// Apple's App Store Server libraries. The JSON that OfferKit signs has a fixed member order
/// (`operation`, `version`, `requestInfo`, then the fields in the order they are declared here),
/// so the same request always yields the same bytes.
///
/// Every field is bounded, so that one request's work is small wherever it is signed (the CLI,
/// `offerkit batch`, the service). Apple publishes some limits: the lengths of `description`,
/// `displayName` and `SKU`, and `periodCount`'s range (`AdvancedCommerceValidationUtils` of
/// Apple's app-store-server-library in Java, Python and Node.js, and the Advanced Commerce API's
/// errors `DescriptionLengthExceededError`, `DisplayNameLengthExceededError`,
/// `SKULengthExceededError`, `CurrentSKULengthExceededError`); three-letter `currency` (ISO 4217)
/// and `storefront` (ISO 3166-1 alpha-3), and UUIDs in `requestInfo`. Apple refuses a request with
/// too many items (`ItemLimitExceededError`, 4000179; `MoreItemsThanAllowedError`, 4000136) but
/// does not publish the number, and documents no length for `taxCode`, `transactionId` or
/// `consistencyToken`: for those OfferKit sets the bounds below, far above what Apple's own
/// examples use.
public enum AdvancedCommerce {
    /// Maximum length of `description` (UTF-16 code units).
    public static let descriptionMaximum = 45
    /// Maximum length of `displayName` (UTF-16 code units).
    public static let displayNameMaximum = 30
    /// Maximum length of a `SKU` or `currentSKU`.
    public static let skuMaximum = 128
    /// Allowed range of `offer.periodCount`.
    public static let periodCountRange = 1...12
    /// The most items of one list (`items`, `addItems`, `changeItems`, `removeItems`): OfferKit's
    /// bound, as Apple limits the items of a subscription without saying how far (Apple's examples
    /// have one or two).
    public static let itemsMaximum = 100
    /// Maximum length of `taxCode` (UTF-16 code units): OfferKit's bound; Apple's tax codes, such
    /// as `C003-00-2`, have 9 characters.
    public static let taxCodeMaximum = 64
    /// Maximum length of a `transactionId` or `previousTransactionId` (UTF-16 code units): OfferKit's
    /// bound; App Store transaction IDs are decimal numbers of up to 20 digits.
    public static let transactionIdMaximum = 64
    /// Maximum length of `requestInfo.consistencyToken` (UTF-16 code units): OfferKit's bound; the
    /// token in Apple's example renewal info, `1.12345.932c6903-0ab8-4469-9f21-015f6fab013c`, has 44
    /// characters.
    public static let consistencyTokenMaximum = 512
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
