import OfferJSON

/// The things OfferKit signs, by the one name every surface uses: `batch` line types, `verify --kind`,
/// `sign` subcommands, HTTP paths and scopes, snippets and the docs.
///
/// Names are read in any case (`EnumeratedValue`). Older spellings are still accepted as input (``named(_:)`` reports them so callers can print a
/// deprecation note) and are never printed.
public enum SigningOperation: String, CaseIterable, Sendable, Codable, EnumeratedValue {
    /// A promotional offer signed as a V2 compact JWS.
    case promotionalOffer = "promotional-offer"
    /// A promotional offer signed the legacy way (ECDSA over a `U+2063`-joined string).
    case legacyPromotionalOffer = "legacy-promotional-offer"
    /// An introductory-offer eligibility compact JWS.
    case introductoryOfferEligibility = "introductory-offer-eligibility"
    /// An Advanced Commerce in-app request compact JWS.
    case advancedCommerce = "advanced-commerce"
    /// An App Store Server API bearer token.
    case serverAPIToken = "server-api-token"
    /// An App Store Connect API bearer token.
    case connectAPIToken = "connect-api-token"

    /// Earlier spellings still accepted as input, with the name that replaces each.
    public static let deprecatedSpellings: [String: SigningOperation] = [
        "promotional-offer-v1": .legacyPromotionalOffer,
        "intro-eligibility": .introductoryOfferEligibility,
        "advanced-commerce-api": .advancedCommerce,
    ]

    /// The operation a name stands for (in any case), and whether the name is a deprecated
    /// spelling. Returns `nil` for a name that is neither current nor deprecated.
    public static func named(_ name: String) -> (operation: SigningOperation, deprecated: Bool)? {
        if let operation = SigningOperation(anyCase: name) { return (operation, false) }
        if let operation = deprecatedOperation(name) { return (operation, true) }
        return nil
    }

    /// The note printed (on stderr) when input used a deprecated spelling (in any case).
    public static func deprecationNote(for spelling: String) -> String? {
        guard let operation = deprecatedOperation(spelling) else { return nil }
        return "note: '\(spelling)' is deprecated; the name is now '\(operation.rawValue)'"
    }

    /// The operation a deprecated spelling (in any case) stands for.
    private static func deprecatedOperation(_ spelling: String) -> SigningOperation? {
        deprecatedSpellings.first { EnumeratedSpelling.equalIgnoringCase($0.key, spelling) }?.value
    }

    /// Every current name, for messages and help.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
