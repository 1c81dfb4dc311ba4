import Foundation
import OfferJSON

extension LegacyPromotionalOfferSignature {
    /// What ``read(json:)`` found in a JSON object.
    public struct JSONInput: Sendable {
        /// The signature and the values it signed.
        public let signature: LegacyPromotionalOfferSignature
        /// `bundleId`, when the object carries one.
        public let bundleId: String?
        /// Deprecated member names the object used (`offerId`), for a note.
        public let deprecatedFields: [String]
    }

    /// The members ``read(json:)`` accepts.
    public static let jsonMembers = [
        "keyId", "nonce", "timestamp", "signature", "encodedSignature", "productId", "offerIdentifier", "offerId",
        "appAccountToken", "bundleId",
    ]

    /// Reads a legacy signature from one JSON object, as printed by
    /// `offerkit sign legacy-promotional-offer --format json` (`signature`) or as Retention
    /// Messaging's `promotionalOfferSignatureV1` (`encodedSignature`): `keyId`, `nonce`,
    /// `timestamp` (milliseconds), the signature, `productId`, `offerIdentifier` (the deprecated
    /// `offerId` is accepted), and optionally `appAccountToken` and `bundleId`.
    ///
    /// The values are taken as they are: verifying (``JWSVerifier/verify(_:bundleId:)``) checks them.
    /// - Throws: ``RequestValidationError`` naming the member at fault; an unknown member is an
    ///   error, so a misspelt one is never silently left out.
    public static func read(json bytes: [UInt8]) throws(RequestValidationError) -> JSONInput {
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            throw .invalidFormat(field: "(the JSON object)", expected: "one JSON object: \(error.message)")
        }
        guard case .object = document else {
            throw .invalidFormat(field: "(the JSON object)", expected: "one JSON object, found \(document.typeName)")
        }
        if let unknown = document.keys.first(where: { !jsonMembers.contains($0) }) {
            throw .invalidFormat(
                field: unknown,
                expected: "no such member; the members are "
                    + jsonMembers.filter { $0 != "offerId" }.joined(separator: ", "))
        }
        func string(_ names: String...) throws(RequestValidationError) -> String? {
            let given = names.filter { document[$0] != nil }
            if given.count > 1 {
                throw .invalidFormat(field: given[1], expected: "only one of \(given.joined(separator: " and "))")
            }
            guard let name = given.first, let value = document[name] else { return nil }
            guard case .string(let text) = value else {
                throw .invalidFormat(field: name, expected: "a string, found \(value.shortDescription)")
            }
            return text
        }
        func required(_ names: String...) throws(RequestValidationError) -> String {
            var found: String?
            switch names.count {
            case 1: found = try string(names[0])
            default: found = try string(names[0], names[1])
            }
            guard let found else {
                throw .invalidFormat(field: names[0], expected: "a string, found no such member")
            }
            return found
        }
        let keyId = try required("keyId")
        let nonceText = try required("nonce")
        guard let nonce = UUID(uuidString: nonceText) else {
            throw .invalidFormat(field: "nonce", expected: "a UUID")
        }
        guard let timestampValue = document["timestamp"] else {
            throw .invalidFormat(field: "timestamp", expected: "an integer (milliseconds), found no such member")
        }
        guard let timestamp = timestampValue.exactInteger else {
            throw .invalidFormat(
                field: "timestamp", expected: "an integer (milliseconds), found \(timestampValue.shortDescription)")
        }
        let signature = LegacyPromotionalOfferSignature(
            keyId: keyId, nonce: nonce, timestamp: timestamp,
            signature: try required("signature", "encodedSignature"), productId: try required("productId"),
            offerIdentifier: try required("offerIdentifier", "offerId"),
            appAccountToken: try string("appAccountToken") ?? "")
        return JSONInput(
            signature: signature, bundleId: try string("bundleId"),
            deprecatedFields: document["offerId"] != nil ? ["offerId"] : [])
    }
}
