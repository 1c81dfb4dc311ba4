import Foundation
import OfferJSON

/// The inputs of a legacy (version 1) promotional offer signature.
public struct LegacyPromotionalOfferRequest: Codable, Hashable, Sendable {
    /// The subscription's product identifier.
    public var productId: String
    /// The promotional offer's identifier.
    public var offerIdentifier: String
    /// The app account token (StoreKit 2) or application username (StoreKit 1); empty when the
    /// app sets none. It is lower-cased before signing, as StoreKit does.
    public var appAccountToken: String

    public init(productId: String, offerIdentifier: String, appAccountToken: String = "") {
        self.productId = productId
        self.offerIdentifier = offerIdentifier
        self.appAccountToken = appAccountToken
    }

    var normalizedAppAccountToken: String { appAccountToken.lowercased() }

    func validate() throws(RequestValidationError) {
        try Check.identifier(productId, "productId")
        try Check.identifier(offerIdentifier, "offerIdentifier")
        if !appAccountToken.isEmpty { try Check.identifier(appAccountToken, "appAccountToken") }
    }

    /// The signed message: the seven fields joined by U+2063 INVISIBLE SEPARATOR, UTF-8.
    /// - Parameter appAccountToken: ``normalizedAppAccountToken``, computed once by the caller.
    func message(bundleId: String, keyId: String, appAccountToken: String, nonce: UUID, timestamp: Int64) -> [UInt8] {
        let separator: [UInt8] = [0xE2, 0x81, 0xA3]
        var out: [UInt8] = []
        out.reserveCapacity(160)
        out.append(contentsOf: bundleId.utf8)
        out.append(contentsOf: separator)
        out.append(contentsOf: keyId.utf8)
        out.append(contentsOf: separator)
        out.append(contentsOf: productId.utf8)
        out.append(contentsOf: separator)
        out.append(contentsOf: offerIdentifier.utf8)
        out.append(contentsOf: separator)
        out.append(contentsOf: appAccountToken.utf8)
        out.append(contentsOf: separator)
        nonce.appendLowercase(to: &out)
        out.append(contentsOf: separator)
        JSONWriter.appendDecimal(timestamp, to: &out)
        return out
    }
}
