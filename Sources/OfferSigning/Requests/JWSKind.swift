import OfferJSON

/// The kinds of compact JWS that OfferKit signs and verifies, by their ``SigningOperation`` names.
public enum JWSKind: String, CaseIterable, Codable, Sendable, EnumeratedValue {
    /// Promotional offer V2 (`aud` = `promotional-offer`).
    case promotionalOffer = "promotional-offer"
    /// Introductory-offer eligibility (`aud` = `introductory-offer-eligibility`).
    case introductoryOfferEligibility = "introductory-offer-eligibility"
    /// Advanced Commerce in-app request (`aud` = `advanced-commerce-api`; named `advanced-commerce`).
    case advancedCommerce = "advanced-commerce"
    /// App Store Server API bearer token (`aud` = `appstoreconnect-v1`, with `bid`).
    case serverAPIToken = "server-api-token"
    /// App Store Connect API bearer token (`aud` = `appstoreconnect-v1`, no `bid`).
    case connectAPIToken = "connect-api-token"

    /// The `aud` claim this kind carries.
    public var audience: String {
        switch self {
        case .promotionalOffer, .introductoryOfferEligibility: rawValue
        case .advancedCommerce: "advanced-commerce-api"
        case .serverAPIToken, .connectAPIToken: "appstoreconnect-v1"
        }
    }

    /// Whether this is a StoreKit request (no `exp`, with `nonce`) rather than an API token.
    public var isStoreKitRequest: Bool {
        switch self {
        case .promotionalOffer, .introductoryOfferEligibility, .advancedCommerce: true
        case .serverAPIToken, .connectAPIToken: false
        }
    }

    /// The kind a name stands for (a ``SigningOperation`` name, or a deprecated spelling such as
    /// `advanced-commerce-api`), and whether the name is deprecated. `nil` for any other name,
    /// `legacy-promotional-offer` included: that signature is not a JWS.
    public static func named(_ name: String) -> (kind: JWSKind, deprecated: Bool)? {
        guard let (operation, deprecated) = SigningOperation.named(name),
            let kind = JWSKind(rawValue: operation.rawValue)
        else { return nil }
        return (kind, deprecated)
    }
}
