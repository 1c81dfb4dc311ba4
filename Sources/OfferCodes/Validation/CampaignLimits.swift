/// The limits the campaign format and Apple set, in one place for the reader and the rules.
public enum CampaignLimits {
    /// Campaign names: letters, digits, `-`, `_`, `.`.
    public static let maximumNameLength = 64
    /// What is wrong with `name` as a campaign name, or `nil` when it is one: 1 to
    /// ``maximumNameLength`` characters, letters, digits, `-`, `_` and `.` (the service checks a
    /// campaign name in a path or a body by this rule before it reads a ledger).
    package static func nameProblem(_ name: String) -> String? { CampaignRules.nameProblem(name) }
    /// App Apple IDs: ASCII digits.
    static let maximumAppAppleIdLength = 20
    /// Offer reference names.
    static let maximumReferenceNameLength = 64
    /// Entries of an offer's `displayName`.
    public static let maximumDisplayNameEntries = 50
    /// The characters of a `displayName` language tag (BCP 47 asks implementations to accept at
    /// least 35).
    public static let languageTagLength = 2...35
    /// The characters of a `displayName` title.
    public static let maximumTitleLength = 100
    /// Custom codes, prefix included.
    static let maximumCodeLength = 64
    /// The fewest random characters of a generated code.
    static let minimumGeneratedLength = CodeGenerationSpec.minimumLength
    /// Apple: active offers per app at a time.
    public static let activeOffersPerApp = 10
    /// Apple: production codes (one-time-use codes plus custom-code redemptions) per app per quarter.
    public static let productionCodesPerQuarter = 1_000_000
    /// Apple: sandbox one-time-use codes per app per quarter.
    public static let sandboxCodesPerQuarter = 10_000
    /// The most codes one batch may ask for (a one-time-use batch's `count`, or a generated
    /// custom-code batch's `generate.count`): Apple's limit of 1,000,000 codes per app per
    /// quarter, which no batch can exceed since it counts against the quarter it is created in.
    /// Validation checks it before any code is generated or recorded; the quarter's totals
    /// (including the stricter 10,000 sandbox codes) are checked across batches.
    public static let maximumCodesPerBatch = productionCodesPerQuarter
    /// Apple: win-back offer reference names ("up to 65 characters", WinBackOfferCreateRequest).
    static let maximumWinBackReferenceNameLength = 65
    /// Apple: win-back offer ids ("up to 100 characters"); OfferKit holds promotional offer
    /// identifiers, for which Apple documents no length, to the same rule.
    static let maximumOfferIdentifierLength = 100
    /// Apple: "up to 10 subscription offers active at any given time per subscription"
    /// (StoreKit, Setting Up Subscription Offers): promotional offers per subscription.
    public static let promotionalOffersPerSubscription = 10
    /// Apple: "one current and one future introductory offer set up per country or region"
    /// (App Store Connect Help, Pricing and availability).
    public static let introductoryOffersPerTerritory = 2
    /// Apple: "a maximum of 350 win-back offers per subscription" (App Store Connect Help, Set up
    /// win-back offers).
    public static let winBackOffersPerSubscription = 350
    /// Apple: "a maximum of 5 win-back offers per storefront, per subscription at a time" (the same page).
    public static let winBackOffersPerTerritoryAtATime = 5
    /// Apple: one-time-use codes expire within this many calendar months of creation.
    static let oneTimeUseExpiryMonths = 6
}
