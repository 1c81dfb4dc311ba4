import Foundation

/// One language-neutral interop test case: inputs, fixed nonce and clock, and the exact bytes
/// OfferKit produced for them, so another implementation can check itself byte for byte.
public struct InteropVector: Codable, Hashable, Sendable {
    /// What is signed.
    public enum Kind: String, Codable, CaseIterable, Sendable {
        case promotionalOffer = "promotional-offer"
        case introductoryOfferEligibility = "introductory-offer-eligibility"
        case advancedCommerce = "advanced-commerce"
        case serverAPIToken = "server-api-token"
        case connectAPIToken = "connect-api-token"
        case legacyPromotionalOffer = "legacy-promotional-offer"
    }

    /// The inputs of each kind, with the field names of the request models.
    public enum Inputs: Hashable, Sendable {
        case promotionalOffer(PromotionalOfferRequest)
        case introductoryOfferEligibility(IntroductoryOfferEligibilityRequest)
        case advancedCommerce(AdvancedCommerce.InAppRequest)
        case serverAPIToken(lifetime: Int)
        case connectAPIToken(lifetime: Int, scope: [String], individual: Bool)
        case legacyPromotionalOffer(LegacyPromotionalOfferRequest)

        public var kind: Kind {
            switch self {
            case .promotionalOffer: .promotionalOffer
            case .introductoryOfferEligibility: .introductoryOfferEligibility
            case .advancedCommerce: .advancedCommerce
            case .serverAPIToken: .serverAPIToken
            case .connectAPIToken: .connectAPIToken
            case .legacyPromotionalOffer: .legacyPromotionalOffer
            }
        }
    }

    /// What OfferKit produced.
    public struct Expected: Codable, Hashable, Sendable {
        /// JWS kinds: the header JSON exactly as encoded.
        public var headerJson: String?
        /// JWS kinds: the payload JSON exactly as encoded.
        public var payloadJson: String?
        /// Advanced Commerce: the request JSON exactly as base64-encoded into the `request` claim.
        public var requestJson: String?
        public var headerSegment: String?
        public var payloadSegment: String?
        /// JWS kinds: `headerSegment.payloadSegment`, the bytes that are signed.
        public var signingInput: String?
        /// Legacy: the signed message, with U+2063 between the fields.
        public var message: String?
        /// Legacy: the signed message's UTF-8 bytes in hexadecimal.
        public var messageHex: String?
        /// A signature that verifies: base64url raw `r || s` (JWS) or standard base64 DER (legacy).
        /// ECDSA signatures are randomised, so a fresh one differs but must verify too.
        public var signature: String
        /// JWS kinds: the whole compact JWS.
        public var jws: String?
    }

    public var name: String
    public var kind: Kind
    public var inputs: Inputs
    public var keyId: String
    public var issuerId: String
    public var bundleId: String
    /// StoreKit requests and legacy: the fixed nonce, lower-case.
    public var nonce: String?
    /// JWS kinds: the fixed `iat`, whole seconds.
    public var iat: Int64?
    /// Legacy: the fixed timestamp, milliseconds.
    public var timestamp: Int64?
    public var publicKeyPem: String
    public var expected: Expected

    public init(
        name: String, kind: Kind, inputs: Inputs, keyId: String, issuerId: String, bundleId: String,
        nonce: String? = nil, iat: Int64? = nil, timestamp: Int64? = nil, publicKeyPem: String, expected: Expected
    ) {
        self.name = name
        self.kind = kind
        self.inputs = inputs
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        self.nonce = nonce
        self.iat = iat
        self.timestamp = timestamp
        self.publicKeyPem = publicKeyPem
        self.expected = expected
    }

    private enum CodingKeys: String, CodingKey {
        case name, kind, inputs, keyId, issuerId, bundleId, nonce, iat, timestamp, publicKeyPem, expected
    }

    private enum TokenKeys: String, CodingKey { case lifetime, scope, individual }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        kind = try container.decode(Kind.self, forKey: .kind)
        keyId = try container.decode(String.self, forKey: .keyId)
        issuerId = try container.decode(String.self, forKey: .issuerId)
        bundleId = try container.decode(String.self, forKey: .bundleId)
        nonce = try container.decodeIfPresent(String.self, forKey: .nonce)
        iat = try container.decodeIfPresent(Int64.self, forKey: .iat)
        timestamp = try container.decodeIfPresent(Int64.self, forKey: .timestamp)
        publicKeyPem = try container.decode(String.self, forKey: .publicKeyPem)
        expected = try container.decode(Expected.self, forKey: .expected)
        switch kind {
        case .promotionalOffer:
            inputs = .promotionalOffer(try container.decode(PromotionalOfferRequest.self, forKey: .inputs))
        case .introductoryOfferEligibility:
            inputs = .introductoryOfferEligibility(
                try container.decode(IntroductoryOfferEligibilityRequest.self, forKey: .inputs))
        case .advancedCommerce:
            inputs = .advancedCommerce(try container.decode(AdvancedCommerce.InAppRequest.self, forKey: .inputs))
        case .legacyPromotionalOffer:
            inputs = .legacyPromotionalOffer(try container.decode(LegacyPromotionalOfferRequest.self, forKey: .inputs))
        case .serverAPIToken:
            let token = try container.nestedContainer(keyedBy: TokenKeys.self, forKey: .inputs)
            inputs = .serverAPIToken(lifetime: try token.decode(Int.self, forKey: .lifetime))
        case .connectAPIToken:
            let token = try container.nestedContainer(keyedBy: TokenKeys.self, forKey: .inputs)
            inputs = .connectAPIToken(
                lifetime: try token.decode(Int.self, forKey: .lifetime),
                scope: try token.decodeIfPresent([String].self, forKey: .scope) ?? [],
                individual: try token.decodeIfPresent(Bool.self, forKey: .individual) ?? false)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(kind, forKey: .kind)
        switch inputs {
        case .promotionalOffer(let request): try container.encode(request, forKey: .inputs)
        case .introductoryOfferEligibility(let request): try container.encode(request, forKey: .inputs)
        case .advancedCommerce(let request): try container.encode(request, forKey: .inputs)
        case .legacyPromotionalOffer(let request): try container.encode(request, forKey: .inputs)
        case .serverAPIToken(let lifetime):
            var token = container.nestedContainer(keyedBy: TokenKeys.self, forKey: .inputs)
            try token.encode(lifetime, forKey: .lifetime)
        case .connectAPIToken(let lifetime, let scope, let individual):
            var token = container.nestedContainer(keyedBy: TokenKeys.self, forKey: .inputs)
            try token.encode(lifetime, forKey: .lifetime)
            try token.encode(scope, forKey: .scope)
            try token.encode(individual, forKey: .individual)
        }
        try container.encode(keyId, forKey: .keyId)
        try container.encode(issuerId, forKey: .issuerId)
        try container.encode(bundleId, forKey: .bundleId)
        try container.encodeIfPresent(nonce, forKey: .nonce)
        try container.encodeIfPresent(iat, forKey: .iat)
        try container.encodeIfPresent(timestamp, forKey: .timestamp)
        try container.encode(publicKeyPem, forKey: .publicKeyPem)
        try container.encode(expected, forKey: .expected)
    }
}
