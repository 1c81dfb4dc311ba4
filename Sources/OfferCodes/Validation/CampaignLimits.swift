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
    /// Apple: one-time-use codes expire within this many calendar months of creation.
    static let oneTimeUseExpiryMonths = 6
}
