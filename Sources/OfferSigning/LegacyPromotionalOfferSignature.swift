import Foundation
import OfferJSON

/// A legacy (version 1) promotional offer signature and everything the app needs with it.
///
/// Encodes as Retention Messaging's `promotionalOfferSignatureV1` object: `encodedSignature`,
/// `productId`, `nonce`, `timestamp`, `keyId`, `offerIdentifier`, and `appAccountToken` when
/// one was signed.
///
/// On the device, pass ``signature`` base64-**decoded** to `Data`
/// (`Data(base64Encoded: signature)`): passing the string's UTF-8 bytes is the most common
/// client bug and fails the purchase.
public struct LegacyPromotionalOfferSignature: Hashable, Sendable {
    /// The key ID that signed.
    public let keyId: String
    /// The nonce that was signed (StoreKit wants the `UUID`; its string form is lower-case).
    public let nonce: UUID
    /// UNIX time in milliseconds that was signed.
    public let timestamp: Int64
    /// The DER ECDSA signature, standard base64 with padding.
    public let signature: String
    public let productId: String
    public let offerIdentifier: String
    /// The lower-cased app account token that was signed; empty when none.
    public let appAccountToken: String

    /// A signature as received, for example to verify it with ``JWSVerifier/verify(_:bundleId:)``.
    public init(
        keyId: String, nonce: UUID, timestamp: Int64, signature: String, productId: String, offerIdentifier: String,
        appAccountToken: String = ""
    ) {
        self.keyId = keyId
        self.nonce = nonce
        self.timestamp = timestamp
        self.signature = signature
        self.productId = productId
        self.offerIdentifier = offerIdentifier
        self.appAccountToken = appAccountToken
    }

    /// The nonce in the lower-case form that was signed.
    public var nonceString: String { nonce.lowercasedString }

    /// The signature's DER bytes: what StoreKit's `signature:` parameter takes.
    public var signatureBytes: [UInt8] { Base64.decode(Array(signature.utf8), urlSafe: false) ?? [] }
}

extension LegacyPromotionalOfferSignature: Codable {
    private enum CodingKeys: String, CodingKey {
        case encodedSignature, productId, nonce, timestamp, keyId, offerIdentifier, appAccountToken
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let nonceText = try container.decode(String.self, forKey: .nonce)
        guard let nonce = UUID(uuidString: nonceText) else {
            throw DecodingError.dataCorruptedError(forKey: .nonce, in: container, debugDescription: "expected a UUID")
        }
        self.init(
            keyId: try container.decode(String.self, forKey: .keyId), nonce: nonce,
            timestamp: try container.decode(Int64.self, forKey: .timestamp),
            signature: try container.decode(String.self, forKey: .encodedSignature),
            productId: try container.decode(String.self, forKey: .productId),
            offerIdentifier: try container.decode(String.self, forKey: .offerIdentifier),
            appAccountToken: try container.decodeIfPresent(String.self, forKey: .appAccountToken) ?? "")
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(signature, forKey: .encodedSignature)
        try container.encode(productId, forKey: .productId)
        try container.encode(nonceString, forKey: .nonce)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(keyId, forKey: .keyId)
        try container.encode(offerIdentifier, forKey: .offerIdentifier)
        if !appAccountToken.isEmpty { try container.encode(appAccountToken, forKey: .appAccountToken) }
    }
}
