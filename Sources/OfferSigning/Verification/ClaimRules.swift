import Foundation
import OfferJSON

/// The claims each kind of JWS must, may and must not carry, and their types.
enum ClaimRules {
    private enum ClaimType {
        case string, integer, boolean, lowercaseUUIDv4, uuid, stringArray, base64Request
    }

    private struct Rule {
        let required: [(String, ClaimType)]
        let optional: [(String, ClaimType)]
    }

    private static let storeKitBase: [(String, ClaimType)] = [
        ("iss", .uuid), ("iat", .integer), ("aud", .string), ("bid", .string), ("nonce", .lowercaseUUIDv4),
    ]

    private static func rule(for kind: JWSKind) -> Rule {
        switch kind {
        case .promotionalOffer:
            Rule(
                required: storeKitBase + [("productId", .string), ("offerIdentifier", .string)],
                optional: [("transactionId", .string)])
        case .introductoryOfferEligibility:
            Rule(
                required: storeKitBase + [
                    ("productId", .string), ("allowIntroductoryOffer", .boolean), ("transactionId", .string),
                ], optional: [])
        case .advancedCommerce:
            Rule(required: storeKitBase + [("request", .base64Request)], optional: [])
        case .serverAPIToken:
            Rule(
                required: [("iss", .uuid), ("iat", .integer), ("exp", .integer), ("aud", .string), ("bid", .string)],
                optional: [])
        case .connectAPIToken:
            Rule(
                required: [("iat", .integer), ("exp", .integer), ("aud", .string)],
                optional: [("iss", .uuid), ("sub", .string), ("scope", .stringArray)])
        }
    }

    /// The kind a payload claims to be, from its `aud` (and `bid` for API tokens).
    static func kind(of payload: JSONValue) throws(VerificationError) -> JWSKind {
        guard case .object = payload else { throw .malformed("the payload is not a JSON object") }
        guard let aud = payload["aud"] else { throw .missingClaim("aud") }
        guard case .string(let audience) = aud else {
            throw .invalidClaim(field: "aud", expected: "a single string, found \(aud.typeName)")
        }
        switch audience {
        case JWSKind.promotionalOffer.audience: return .promotionalOffer
        case JWSKind.introductoryOfferEligibility.audience: return .introductoryOfferEligibility
        case JWSKind.advancedCommerce.audience: return .advancedCommerce
        case JWSKind.serverAPIToken.audience: return payload["bid"] == nil ? .connectAPIToken : .serverAPIToken
        default:
            let known = [JWSKind.promotionalOffer, .introductoryOfferEligibility, .advancedCommerce, .serverAPIToken]
            throw .invalidClaim(
                field: "aud", expected: "one of " + known.map { "\"\($0.audience)\"" }.joined(separator: ", "))
        }
    }

    /// Checks the claims of a `kind` JWS; `now` is the verifier's clock, for `iat`.
    static func check(
        _ payload: JSONValue, as kind: JWSKind, now: Date
    ) throws(VerificationError) -> (VerifiedJWS.Claims, AdvancedCommerce.InAppRequest?) {
        let rule = rule(for: kind)
        let allowed = Set((rule.required + rule.optional).map(\.0))
        if let extra = payload.keys.first(where: { !allowed.contains($0) }) { throw .unexpectedClaim(extra) }
        for (name, type) in rule.required {
            guard let value = payload[name] else { throw .missingClaim(name) }
            try checkType(value, type, name)
        }
        for (name, type) in rule.optional {
            if let value = payload[name] { try checkType(value, type, name) }
        }
        func string(_ name: String) -> String? {
            if case .string(let value)? = payload[name] { return value }
            return nil
        }
        var claims = VerifiedJWS.Claims(
            iss: string("iss"), sub: string("sub"), iat: payload["iat"]!.int64!, exp: payload["exp"]?.int64,
            aud: string("aud")!, bid: string("bid"), nonce: string("nonce"), productId: string("productId"),
            offerIdentifier: string("offerIdentifier"), transactionId: string("transactionId"),
            allowIntroductoryOffer: nil, request: string("request"), scope: nil)
        // Before any arithmetic on it (the lifetime below): iat is a believable time.
        if let problem = ClaimTime.issuedAtProblem(claims.iat, now: now) {
            throw .invalidClaim(field: "iat", expected: problem)
        }
        if case .bool(let allow)? = payload["allowIntroductoryOffer"] { claims.allowIntroductoryOffer = allow }
        if case .array(let entries)? = payload["scope"] {
            claims.scope = entries.compactMap { if case .string(let s) = $0 { s } else { nil } }
        }
        if !kind.isStoreKitRequest { try checkLifetime(claims, kind: kind) }
        if kind == .connectAPIToken {
            switch (claims.iss, claims.sub) {
            case (.some, nil): break
            case (nil, "user"?): break
            case (nil, .some): throw .invalidClaim(field: "sub", expected: "\"user\" (individual key)")
            case (nil, nil): throw .missingClaim("iss")
            case (.some, .some): throw .unexpectedClaim("sub")
            }
        }
        var request: AdvancedCommerce.InAppRequest?
        if kind == .advancedCommerce, let encoded = claims.request {
            request = try decodeRequest(encoded)
        }
        return (claims, request)
    }

    private static func checkLifetime(_ claims: VerifiedJWS.Claims, kind: JWSKind) throws(VerificationError) {
        let maximum =
            kind == .serverAPIToken ? OfferSigner.serverAPITokenMaximumLifetime : ConnectAPITokenSigner.maximumLifetime
        // iat is within ClaimTime's range here, so exp - iat cannot overflow once exp > iat.
        guard let exp = claims.exp, exp > claims.iat, exp - claims.iat <= Int64(maximum) else {
            let found = claims.exp.map { "found \($0) for iat \(claims.iat)" } ?? "found none"
            throw .invalidClaim(
                field: "exp", expected: "an integer after iat, at most \(maximum) seconds later; \(found)")
        }
    }

    private static func checkType(_ value: JSONValue, _ type: ClaimType, _ name: String) throws(VerificationError) {
        let ok: Bool
        let expected: String
        switch type {
        case .string:
            expected = "a non-empty string"
            if case .string(let text) = value { ok = !text.isEmpty } else { ok = false }
        case .integer:
            expected = "an integer (whole seconds)"
            ok = value.int64 != nil
        case .boolean:
            expected = "a boolean"
            if case .bool = value { ok = true } else { ok = false }
        case .uuid:
            expected = "a UUID string"
            if case .string(let text) = value { ok = CredentialValidation.isUUID(text) } else { ok = false }
        case .lowercaseUUIDv4:
            expected = "a lower-case UUID v4 string"
            if case .string(let text) = value {
                let utf8 = Array(text.utf8)
                ok =
                    CredentialValidation.isUUID(text) && text == text.lowercased() && utf8[14] == UInt8(ascii: "4")
                    && [UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b")].contains(utf8[19])
            } else {
                ok = false
            }
        case .stringArray:
            expected = "an array of strings"
            if case .array(let entries) = value {
                ok = entries.allSatisfy { if case .string = $0 { true } else { false } }
            } else {
                ok = false
            }
        case .base64Request:
            expected = "standard base64 (padded) of the request JSON"
            if case .string(let text) = value {
                ok = text.utf8.count % 4 == 0 && Base64.decode(Array(text.utf8), urlSafe: false) != nil
            } else {
                ok = false
            }
        }
        guard ok else { throw .invalidClaim(field: name, expected: "\(expected), found \(value.shortDescription)") }
    }

    private static func decodeRequest(_ encoded: String) throws(VerificationError) -> AdvancedCommerce.InAppRequest {
        let json = Base64.decode(Array(encoded.utf8), urlSafe: false) ?? []
        let request: AdvancedCommerce.InAppRequest
        do {
            request = try AdvancedCommerce.InAppRequest.decode(json: json)
        } catch {
            throw .invalidClaim(
                field: "request", expected: "a valid Advanced Commerce request (\(error.localizedDescription))")
        }
        return request
    }
}
