/// The limits the campaign format and Apple set, in one place for the reader and the rules.
public enum CampaignLimits {
    /// Campaign names: letters, digits, `-`, `_`, `.`.
    static let maximumNameLength = 64
    /// App Apple IDs: ASCII digits.
    static let maximumAppAppleIdLength = 20
    /// Offer reference names.
    static let maximumReferenceNameLength = 64
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
    /// Apple: one-time-use codes expire within this many calendar months of creation.
    static let oneTimeUseExpiryMonths = 6
}
