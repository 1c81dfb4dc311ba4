import OfferJSON

/// What each field accepts, in words: the `allowed` text of problems, shared by the reader (for
/// missing and mistyped fields) and the rules.
enum AllowedText {
    static let name =
        "1-\(CampaignLimits.maximumNameLength) characters: letters A-Z a-z, digits 0-9, '-', '_', '.'"
    static let bundleId =
        "a reverse-DNS bundle ID such as com.example.app: letters, digits and '-', parts joined by '.', at most \(BundleIdText.maximumBytes) bytes"
    static let appAppleId = "1-\(CampaignLimits.maximumAppAppleIdLength) digits 0-9, as a string"
    static let offers = "an array of one or more offers"
    static let subscriptionOffers =
        "an array of offers (a campaign lists at least one offer of any kind: offers, promotionalOffers, "
        + "introductoryOffers, winBackOffers)"
    static let subscription =
        "an object with id, productId and optionally period (offerkit codes lookup subscriptions lists them)"
    static let subscriptionId = "the subscription's App Store Connect id such as 6450000001: \(ConnectResource.idRule)"
    static let promotionalReferenceName =
        "a non-empty string of at most \(CampaignLimits.maximumReferenceNameLength) characters, without control "
        + "characters, unique among the app's offers of every kind"
    static let winBackReferenceName =
        "1-\(CampaignLimits.maximumWinBackReferenceNameLength) characters: letters, digits, spaces, '.' and '_' "
        + "(Apple's rule), unique among the app's offers of every kind"
    static let offerIdentifier =
        "1-\(CampaignLimits.maximumOfferIdentifierLength) characters: letters A-Z a-z, digits 0-9, '.' and '_', "
        + "unique among the app's offer identifiers (promotional, win-back, and offer codes' reference names)"
    static let offerDate =
        "a date YYYY-MM-DD, or P<n>D / P<n>M (n >= 1) counted from today (UTC)"
    static let customerEligibility =
        "an object with paidSubscriptionDurationInMonths, timeSinceLastSubscribedInMonths {minimum, maximum} and "
        + "optionally waitBetweenOffersInMonths"
    static let paidSubscriptionDuration = "1 to 24, 36, 48 or 60 (months)"
    static let timeSinceLastSubscribed = "an object {\"minimum\": m, \"maximum\": n} with 1 <= m <= n <= 24 (months)"
    static let monthsSinceLastSubscribed = "an integer from 1 to 24 (months)"
    static let waitBetweenOffers = "an integer from 2 to 24 (months), or leave it out"
    static let referenceName =
        "a non-empty string of at most \(CampaignLimits.maximumReferenceNameLength) characters, "
        + "without control characters, unique among the app's offers"
    static let displayName =
        "an object of at most \(CampaignLimits.maximumDisplayNameEntries) titles by language tag, such as "
        + "{\"en\": \"Three months free\", \"ja\": \"3か月無料\"} (messages use en, ja, ko, zh-Hans)"
    static let displayNameLanguage =
        "a language tag of \(tagLength.lowerBound)-\(tagLength.upperBound) characters: letters A-Z a-z, digits 0-9 "
        + "and '-' (or '_'), such as en, ja, ko or zh-Hans; each language once (tags compare case-insensitively, "
        + "'_' as '-')"
    private static let tagLength = CampaignLimits.languageTagLength
    static let displayNameTitle =
        "a non-empty string of at most \(CampaignLimits.maximumTitleLength) characters, without control characters"
    static let productId = "a non-empty string"
    static let connectId = "an App Store Connect id such as 6450000001: \(ConnectResource.idRule)"
    static let product = "an object with id, productId and type"
    static let app = "an object with bundleId and appAppleId"
    static let customerEligibilities = "a non-empty array of customer eligibilities, each listed once"
    static let prices = "a non-empty array of price entries, one per territory"
    static let territory = "3 upper-case letters: an App Store Connect territory id such as USA or JPN"
    static let pricePoint = "a non-empty string: the id of an App Store Connect price point"
    static let priceEntry =
        "exactly one of \"pricePoint\" (a non-empty string), \"customerPrice\" (such as \"4.99\") or \"free\": true"
    static let customerPrice =
        "a string of 1-\(CustomerPrice.maximumIntegerDigits) digits, optionally '.' and 1-"
        + "\(CustomerPrice.maximumFractionDigits) more, above zero: the price customers pay in the territory's "
        + "currency, such as \"4.99\" or \"480\""
    static let free = "true (leave it out for a paid territory)"
    static let codeCount =
        "an integer >= 1 and at most \(ProblemText.grouped(CampaignLimits.maximumCodesPerBatch)) (Apple's limit of "
        + "codes per app per quarter)"
    static let redemptionLimit = "an integer >= 1: how many times each code can be redeemed"
    static let oneTimeUseCodes = "an array of one-time-use batches (count, expirationDate, environment)"
    static let customCodes = "an array of custom-code batches (codes or generate, redemptionLimit, expirationDate)"
    static let customCodeSource = "exactly one of \"codes\" (an array of strings) or \"generate\" (an object)"
    static let codes = "a non-empty array of custom codes"
    static let customCode =
        "1-\(CampaignLimits.maximumCodeLength) characters: upper-case letters A-Z and digits 0-9"
    static let generate = "an object with count, and optionally prefix, length and alphabet"
    static let prefix = "upper-case letters A-Z and digits 0-9 (or \"\")"
    static let length =
        "an integer >= \(CampaignLimits.minimumGeneratedLength), with the prefix's length + length <= "
        + "\(CampaignLimits.maximumCodeLength)"
    static let alphabet =
        "at least 2 distinct characters from A-Z and 0-9, such as \(CodeGenerationSpec.defaultAlphabet)"
    static let numberOfPeriods = "an integer >= 1"
    static let autoRenewEnabled = "true or false"

    /// `one of A, B, C (in any case)`.
    static func oneOf<Value: EnumeratedValue>(_ type: Value.Type) -> String {
        "one of " + ProblemText.list(Array(type.allCases)) + " (in any case)"
    }
}
