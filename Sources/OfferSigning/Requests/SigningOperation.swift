/// The things OfferKit signs, by the one name every surface uses: `batch` line types, `verify --kind`,
/// `sign` subcommands, HTTP paths and scopes, snippets and the README.
///
/// Older spellings are still accepted as input (``named(_:)`` reports them so callers can print a
/// deprecation note) and are never printed.
public enum SigningOperation: String, CaseIterable, Sendable, Codable {
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

    /// The operation a name stands for, and whether the name is a deprecated spelling.
    /// Returns `nil` for a name that is neither current nor deprecated.
    public static func named(_ name: String) -> (operation: SigningOperation, deprecated: Bool)? {
        if let operation = SigningOperation(rawValue: name) { return (operation, false) }
        if let operation = deprecatedSpellings[name] { return (operation, true) }
        return nil
    }

    /// The note printed (on stderr) when input used a deprecated spelling.
    public static func deprecationNote(for spelling: String) -> String? {
        guard let operation = deprecatedSpellings[spelling] else { return nil }
        return "note: '\(spelling)' is deprecated; the name is now '\(operation.rawValue)'"
    }

    /// Every current name, for messages and help.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
