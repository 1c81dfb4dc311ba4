import Foundation
import OfferJSON
import OfferSigning

/// An answer of a Get Retention Message endpoint, Apple's `RealtimeResponseBody`: a JSON object
/// with at most one of `message`, `alternateProduct`, `promotionalOffer` and `advancedCommerceInfo`
/// (none: `{}`, Apple's default message), no other member, each with only the members Apple
/// documents, identifiers as UUIDs.
///
/// The one description of the answer in OfferKit: the endpoint writes its answers with ``body``
/// (``RealtimeResponseBody`` signs what a decision offers, then writes it here), and
/// ``init(body:)`` reads an answer strictly (`offerkit retention try-endpoint`, the tests, and
/// `OfferRetentionEndpointTesting`'s `verify`), so that what is written is what is read.
///
/// ```swift
/// let answer = try RealtimeAnswer(body: bytes)
/// try answer.verify(with: JWSVerifier(key: key), bundleId: "com.example.app", originalTransactionId: id)
/// ```
public enum RealtimeAnswer: Equatable, Sendable {
    /// `message`: the message.
    case message(messageIdentifier: UUID)
    /// `alternateProduct`: a switch-plan message offering `productId`.
    case alternateProduct(messageIdentifier: UUID, productId: String, billingPlanType: String?)
    /// `promotionalOffer` with `promotionalOfferSignatureV2`: a compact JWS.
    case promotionalOfferV2(messageIdentifier: UUID, jws: String)
    /// `promotionalOffer` with `promotionalOfferSignatureV1`.
    case promotionalOfferV1(messageIdentifier: UUID, signature: LegacyPromotionalOfferSignature)
    /// `advancedCommerceInfo`: `advancedCommerceData` decoded from base64.
    case advancedCommerceInfo(messageIdentifier: UUID, advancedCommerceData: [UInt8])
    /// `{}`: Apple shows the default message of the product and locale.
    case `default`

    /// The largest answer read: 64 KiB (OfferKit's answers are under 2 KB).
    public static let maximumBytes = 64 * 1024

    /// The answer member: `message`, `alternateProduct`, `promotionalOffer`, `advancedCommerceInfo`
    /// or `default`.
    public var kind: String {
        switch self {
        case .message: "message"
        case .alternateProduct: "alternateProduct"
        case .promotionalOfferV1, .promotionalOfferV2: "promotionalOffer"
        case .advancedCommerceInfo: "advancedCommerceInfo"
        case .default: "default"
        }
    }

    /// The answer as the endpoint sends it: compact JSON, members in Apple's order, UUIDs in lower
    /// case, `advancedCommerceData` in standard base64, a V1 signature's `appAccountToken` only when
    /// it has one. ``init(body:)`` reads back every answer ``RealtimeResponseBody`` makes as it was
    /// made; an answer put together by hand is read strictly (an empty `productId`, a
    /// `billingPlanType` Apple does not have, a JWS that is not three parts are refused).
    public var body: [UInt8] {
        var writer = JSONWriter(capacity: 1024)
        writer.beginObject()
        switch self {
        case .message(let messageIdentifier):
            writer.key("message")
            writer.beginObject()
            writer.member("messageIdentifier", messageIdentifier)
            writer.endObject()
        case .alternateProduct(let messageIdentifier, let productId, let billingPlanType):
            writer.key("alternateProduct")
            writer.beginObject()
            writer.member("messageIdentifier", messageIdentifier)
            writer.member("productId", productId)
            writer.member("billingPlanType", billingPlanType)
            writer.endObject()
        case .promotionalOfferV2(let messageIdentifier, let jws):
            writer.key("promotionalOffer")
            writer.beginObject()
            writer.member("messageIdentifier", messageIdentifier)
            writer.member("promotionalOfferSignatureV2", jws)
            writer.endObject()
        case .promotionalOfferV1(let messageIdentifier, let signature):
            writer.key("promotionalOffer")
            writer.beginObject()
            writer.member("messageIdentifier", messageIdentifier)
            writer.key("promotionalOfferSignatureV1")
            writer.beginObject()
            writer.member("encodedSignature", signature.signature)
            writer.member("productId", signature.productId)
            writer.member("nonce", signature.nonce)
            writer.member("timestamp", signature.timestamp)
            writer.member("keyId", signature.keyId)
            writer.member("offerIdentifier", signature.offerIdentifier)
            if !signature.appAccountToken.isEmpty {
                writer.member("appAccountToken", signature.appAccountToken.lowercased())
            }
            writer.endObject()
            writer.endObject()
        case .advancedCommerceInfo(let messageIdentifier, let advancedCommerceData):
            writer.key("advancedCommerceInfo")
            writer.beginObject()
            writer.member("messageIdentifier", messageIdentifier)
            writer.member("advancedCommerceData", base64: advancedCommerceData)
            writer.endObject()
        case .default:
            break
        }
        writer.endObject()
        return writer.bytes
    }

    /// Reads `body` strictly.
    /// - Throws: ``RealtimeAnswerError`` naming the member and what was expected.
    public init(body: [UInt8]) throws(RealtimeAnswerError) {
        guard body.count <= Self.maximumBytes else { throw .tooLarge(bytes: body.count) }
        let json: JSONValue
        do {
            json = try JSONValue.parse(body)
        } catch {
            throw .notJSON(reason: String(error.message.prefix(200)))
        }
        guard case .object(let members) = json else {
            throw .invalid(path: "", expected: "a JSON object, found \(json.typeName)")
        }
        guard members.count <= 1 else {
            throw .invalid(
                path: "",
                expected: "at most one member (Apple: supply one of message, alternateProduct, promotionalOffer, "
                    + "advancedCommerceInfo), found \(members.count)")
        }
        guard let (name, value) = members.first.map({ ($0.key, $0.value) }) else {
            self = .default
            return
        }
        switch name {
        case "message":
            let object = try Self.object(value, "message", allowed: ["messageIdentifier"])
            self = .message(messageIdentifier: try Self.uuid(object, "message", "messageIdentifier"))
        case "alternateProduct":
            let object = try Self.object(
                value, "alternateProduct", allowed: ["messageIdentifier", "productId", "billingPlanType"])
            let billing = try Self.string(object, "alternateProduct", "billingPlanType", required: false)
            if let billing, billing != "MONTHLY", billing != "BILLED_UPFRONT" {
                throw .invalid(
                    path: "alternateProduct.billingPlanType",
                    expected: "MONTHLY or BILLED_UPFRONT, found \(JSONValue.string(billing).shortDescription)")
            }
            self = .alternateProduct(
                messageIdentifier: try Self.uuid(object, "alternateProduct", "messageIdentifier"),
                productId: try Self.nonEmpty(object, "alternateProduct", "productId"), billingPlanType: billing)
        case "promotionalOffer":
            let path = "promotionalOffer"
            let object = try Self.object(
                value, path,
                allowed: ["messageIdentifier", "promotionalOfferSignatureV1", "promotionalOfferSignatureV2"])
            let messageIdentifier = try Self.uuid(object, path, "messageIdentifier")
            switch (object["promotionalOfferSignatureV1"], object["promotionalOfferSignatureV2"]) {
            case (nil, .some):
                let jws = try Self.nonEmpty(object, path, "promotionalOfferSignatureV2")
                guard jws.split(separator: ".", omittingEmptySubsequences: false).count == 3 else {
                    throw .invalid(path: path + ".promotionalOfferSignatureV2", expected: "a compact JWS")
                }
                self = .promotionalOfferV2(messageIdentifier: messageIdentifier, jws: jws)
            case (.some(let v1), nil):
                self = .promotionalOfferV1(
                    messageIdentifier: messageIdentifier,
                    signature: try Self.legacySignature(v1, path: path + ".promotionalOfferSignatureV1"))
            default:
                throw .invalid(
                    path: path, expected: "exactly one of promotionalOfferSignatureV1 and promotionalOfferSignatureV2")
            }
        case "advancedCommerceInfo":
            let path = "advancedCommerceInfo"
            let object = try Self.object(value, path, allowed: ["messageIdentifier", "advancedCommerceData"])
            let messageIdentifier = try Self.uuid(object, path, "messageIdentifier")
            let encoded = try Self.nonEmpty(object, path, "advancedCommerceData")
            guard let data = Base64.decode(Array(encoded.utf8), urlSafe: false) else {
                throw .invalid(path: path + ".advancedCommerceData", expected: "standard base64")
            }
            self = .advancedCommerceInfo(messageIdentifier: messageIdentifier, advancedCommerceData: data)
        default:
            throw .invalid(
                path: "",
                expected: "only message, alternateProduct, promotionalOffer or advancedCommerceInfo, found "
                    + Self.member(name))
        }
    }

    private static func object(_ value: JSONValue, _ path: String, allowed: Set<String>)
        throws(RealtimeAnswerError) -> JSONValue
    {
        guard case .object(let members) = value else {
            throw .invalid(path: path, expected: "an object, found \(value.typeName)")
        }
        for member in members where !allowed.contains(member.key) {
            throw .invalid(
                path: path,
                expected: "only \(allowed.sorted().joined(separator: ", ")), found " + Self.member(member.key))
        }
        return value
    }

    /// A member's name for a message: `the member "extra"` (at most 48 characters, JSON-escaped).
    private static func member(_ name: String) -> String {
        "the member " + JSONValue.string(name.count > 48 ? String(name.prefix(48)) + "…" : name).text()
    }

    private static func string(_ object: JSONValue, _ path: String, _ key: String, required: Bool = true)
        throws(RealtimeAnswerError) -> String?
    {
        guard let value = object[key] else {
            if required { throw .invalid(path: path + "." + key, expected: "a string, found nothing") }
            return nil
        }
        guard case .string(let text) = value else {
            throw .invalid(path: path + "." + key, expected: "a string, found \(value.typeName)")
        }
        return text
    }

    private static func nonEmpty(_ object: JSONValue, _ path: String, _ key: String) throws(RealtimeAnswerError)
        -> String
    {
        guard let text = try string(object, path, key), !text.isEmpty else {
            throw .invalid(path: path + "." + key, expected: "a non-empty string")
        }
        return text
    }

    private static func uuid(_ object: JSONValue, _ path: String, _ key: String, lowerCase: Bool = false)
        throws(RealtimeAnswerError) -> UUID
    {
        let text = try nonEmpty(object, path, key)
        guard let value = UUID(uuidString: text), !lowerCase || text == text.lowercased() else {
            throw .invalid(
                path: path + "." + key,
                expected: (lowerCase ? "a lower-case UUID" : "a UUID") + ", found "
                    + JSONValue.string(text).shortDescription)
        }
        return value
    }

    // Not LegacyPromotionalOfferSignature.read(json:): it also accepts members Apple's answer does not
    // have (signature, offerId, bundleId), takes values as they are (an upper-case nonce, a signature
    // that is not base64), and names fields without this answer's path.
    private static func legacySignature(_ value: JSONValue, path: String) throws(RealtimeAnswerError)
        -> LegacyPromotionalOfferSignature
    {
        let object = try Self.object(
            value, path,
            allowed: [
                "encodedSignature", "productId", "nonce", "timestamp", "keyId", "offerIdentifier", "appAccountToken",
            ])
        let encoded = try nonEmpty(object, path, "encodedSignature")
        guard Base64.decode(Array(encoded.utf8), urlSafe: false) != nil else {
            throw .invalid(path: path + ".encodedSignature", expected: "standard base64")
        }
        guard let timestampValue = object["timestamp"], let timestamp = timestampValue.exactInteger else {
            throw .invalid(
                path: path + ".timestamp",
                expected: "an integer (milliseconds), found \(object["timestamp"]?.typeName ?? "nothing")")
        }
        let nonce = try uuid(object, path, "nonce", lowerCase: true)
        let token: String
        if object["appAccountToken"] != nil {
            token = try uuid(object, path, "appAccountToken", lowerCase: true).uuidString.lowercased()
        } else {
            token = ""
        }
        return LegacyPromotionalOfferSignature(
            keyId: try nonEmpty(object, path, "keyId"), nonce: nonce, timestamp: timestamp, signature: encoded,
            productId: try nonEmpty(object, path, "productId"),
            offerIdentifier: try nonEmpty(object, path, "offerIdentifier"), appAccountToken: token)
    }
}
