import Foundation
import Testing

@testable import OfferSigning

/// `JWSVerifier` rejects every deviation from docs/formats.md §3/§5 with the precise error case and field.
@Suite("Verification")
struct VerificationTests {
    private static let iss = Demo.issuerId
    private static let bid = Demo.bundleId
    private static let nonce = TestJWS.fixedNonceLower

    /// A promotional-offer payload; `members` replaces the tail after the base claims.
    private static func promo(
        iat: String = "1700000000", aud: String = #""promotional-offer""#, nonce: String = #""\#(nonce)""#,
        tail: String = #","productId":"com.example.monthly","offerIdentifier":"WINBACK50""#
    ) -> String {
        #"{"iss":"\#(iss)","iat":\#(iat),"aud":\#(aud),"bid":"\#(bid)","nonce":\#(nonce)\#(tail)}"#
    }

    private func sign(_ payload: String) throws -> String { try TestJWS.sign(payload: payload) }

    private func expectError(
        _ payload: String, _ expected: VerificationError, as kind: JWSKind? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let error = TestJWS.verifyError(try sign(payload), as: kind)
        #expect(error == expected, "\(payload)", sourceLocation: sourceLocation)
        #expect(error?.field == expected.field, sourceLocation: sourceLocation)
    }

    private func expectInvalidClaim(
        _ payload: String, field: String, mentioning fragment: String? = nil, as kind: JWSKind? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let error = TestJWS.verifyError(try sign(payload), as: kind)
        guard case .invalidClaim(let actualField, let expected)? = error else {
            Issue.record(
                "expected invalidClaim(\(field)), got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(actualField == field, sourceLocation: sourceLocation)
        if let fragment {
            #expect(expected.contains(fragment), "\(expected)", sourceLocation: sourceLocation)
        }
        #expect(error?.errorDescription?.hasPrefix("Claim \(field) is invalid") == true, sourceLocation: sourceLocation)
    }

    private func expectMalformed(
        _ compact: String, mentioning fragment: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = TestJWS.verifyError(compact)
        guard case .malformed(let reason)? = error else {
            Issue.record("expected malformed, got \(String(describing: error))", sourceLocation: sourceLocation)
            return
        }
        #expect(reason.contains(fragment), "\(reason)", sourceLocation: sourceLocation)
        #expect(error?.field == nil, sourceLocation: sourceLocation)
    }

    private func validJWS() throws -> String {
        try TestJWS.fixedSigner().sign(
            PromotionalOfferRequest(productId: "com.example.monthly", offerIdentifier: "WINBACK50")
        ).serialization
    }

    // MARK: - Sanity: the hand-built payloads verify when correct

    @Test func handBuiltPayloadVerifies() throws {
        let payload = Self.promo()
        let compact = try sign(payload)
        let verified = try TestJWS.verifier.verify(compact, as: .promotionalOffer)
        #expect(verified.payloadJSON == payload)
        #expect(verified.headerJSON == TestJWS.headerJSON)
        #expect(verified.claims.productId == "com.example.monthly")
        // Surrounding whitespace (a pasted token) is tolerated.
        for wrapped in [" \(compact)\n", "\(compact)\n", "\(compact)\r\n", "\t\(compact)\r", "\n\n\(compact) "] {
            #expect(try TestJWS.verifier.verify(wrapped).payloadJSON == payload)
        }
        // The hand-built form is byte-identical to what the signer emits.
        #expect(TestJWS.payloadText(try validJWS()) == payload)
    }

    // MARK: - Keys and signatures

    @Test func wrongKeyIsSignatureMismatch() throws {
        let other = try SigningKey.generate(keyId: "OTHERKEY12")
        let compact = try validJWS()
        #expect(
            TestJWS.verificationError { () throws(VerificationError) in
                _ = try JWSVerifier(key: other).verify(compact)
            } == .signatureMismatch)
        // And the other way round: signed by another key, verified with the demo key.
        let foreign = try OfferSigner(key: other, issuerId: Demo.issuerId, bundleId: Demo.bundleId)
            .sign(PromotionalOfferRequest(productId: "p", offerIdentifier: "o")).serialization
        #expect(TestJWS.verifyError(foreign) == .signatureMismatch)
        _ = try JWSVerifier(key: other).verify(foreign)
    }

    @Test func publicKeyPEMVerifier() throws {
        let pem = try String(contentsOfFile: Demo.publicKeyPath, encoding: .utf8)
        let verifier = try JWSVerifier(publicKeyPEM: pem)
        _ = try verifier.verify(try validJWS())
        #expect(
            try JWSVerifier(publicKeyPEM: Demo.key.publicKeyPEM).publicKey.rawRepresentation
                == Demo.key.publicKey.rawRepresentation)
        do {
            _ = try JWSVerifier(publicKeyPEM: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")
            Issue.record("garbage PEM accepted")
        } catch {
            if case .invalidPublicKey = error {} else { Issue.record("expected invalidPublicKey, got \(error)") }
        }
    }

    @Test func tamperedPayloadOrSignatureIsMismatch() throws {
        let parts = TestJWS.segments(try validJWS())
        let forged = TestJWS.base64URLEncode(
            Array(Self.promo(tail: #","productId":"com.example.yearly","offerIdentifier":"WINBACK50""#).utf8))
        #expect(TestJWS.verifyError([parts[0], forged, parts[2]].joined(separator: ".")) == .signatureMismatch)

        var signature = try #require(TestJWS.base64URLDecode(parts[2]))
        signature[10] ^= 0x01
        let flipped = [parts[0], parts[1], TestJWS.base64URLEncode(signature)].joined(separator: ".")
        #expect(TestJWS.verifyError(flipped) == .signatureMismatch)

        // r = s = 0 is not a valid signature.
        let zeros = [parts[0], parts[1], TestJWS.base64URLEncode([UInt8](repeating: 0, count: 64))].joined(
            separator: ".")
        #expect(TestJWS.verifyError(zeros) == .signatureMismatch)

        // A signature from another JWS of the same key.
        let other = TestJWS.segments(try TestJWS.sign(payload: Self.promo(iat: "1700000001")))
        #expect(TestJWS.verifyError([parts[0], parts[1], other[2]].joined(separator: ".")) == .signatureMismatch)
    }

    @Test func derSignatureIsMalformedAndSaysDER() throws {
        let parts = TestJWS.segments(try validJWS())
        let raw = try #require(TestJWS.base64URLDecode(parts[2]))
        let reference = try Demo.key.privateKey.signature(for: [0])
        let der = try type(of: reference).init(rawRepresentation: raw).derRepresentation
        #expect(der.first == 0x30)
        let compact = [parts[0], parts[1], TestJWS.base64URLEncode(der)].joined(separator: ".")
        expectMalformed(compact, mentioning: "DER")
        expectMalformed(compact, mentioning: "64 bytes")

        // A fresh DER signature over the signing input, as a buggy signer would emit.
        let fresh = try Demo.key.privateKey.signature(for: Array("\(parts[0]).\(parts[1])".utf8))
        expectMalformed(
            [parts[0], parts[1], TestJWS.base64URLEncode(fresh.derRepresentation)].joined(separator: "."),
            mentioning: "DER")
        // Wrong length that is not DER.
        expectMalformed(
            [parts[0], parts[1], TestJWS.base64URLEncode(raw.dropLast())].joined(separator: "."), mentioning: "63")
    }

    // MARK: - Header

    @Test func headerMustBeExactlyAlgKidTyp() throws {
        let payload = Self.promo()
        func headerError(_ header: String) throws -> VerificationError? {
            TestJWS.verifyError(try TestJWS.sign(header: header, payload: payload))
        }
        // Control: the same helper with the standard header verifies.
        _ = try TestJWS.verifier.verify(try TestJWS.sign(header: TestJWS.headerJSON, payload: payload))
        // Member order does not matter, only the set and the values.
        _ = try TestJWS.verifier.verify(
            try TestJWS.sign(header: #"{"typ":"JWT","kid":"DEMOKEY123","alg":"ES256"}"#, payload: payload))

        #expect(
            try headerError(#"{"alg":"ES256","kid":"DEMOKEY123","typ":"JWT","jku":"https://x"}"#)?.field == "jku")
        #expect(try headerError(#"{"alg":"ES256","kid":"DEMOKEY123","typ":"JWT","x5c":[]}"#)?.field == "x5c")
        #expect(try headerError(#"{"alg":"none","kid":"DEMOKEY123","typ":"JWT"}"#)?.field == "alg")
        #expect(try headerError(#"{"alg":"HS256","kid":"DEMOKEY123","typ":"JWT"}"#)?.field == "alg")
        #expect(try headerError(#"{"alg":"es256","kid":"DEMOKEY123","typ":"JWT"}"#)?.field == "alg")
        #expect(try headerError(#"{"kid":"DEMOKEY123","typ":"JWT"}"#)?.field == "alg")
        #expect(try headerError(#"{"alg":"ES256","kid":"DEMOKEY123"}"#)?.field == "typ")
        #expect(try headerError(#"{"alg":"ES256","kid":"DEMOKEY123","typ":"jwt"}"#)?.field == "typ")
        #expect(try headerError(#"{"alg":"ES256","typ":"JWT"}"#)?.field == "kid")
        #expect(try headerError(#"{"alg":"ES256","kid":"demokey123","typ":"JWT"}"#)?.field == "kid")
        #expect(try headerError(#"{"alg":"ES256","kid":1,"typ":"JWT"}"#)?.field == "kid")
        if case .invalidHeader(_, let expected)? = try headerError(#"{"alg":"none","kid":"DEMOKEY123","typ":"JWT"}"#) {
            #expect(expected == #""ES256""#)
        } else {
            Issue.record("alg none must be invalidHeader")
        }

        // An unsigned "alg":"none" token with an empty signature segment.
        let none =
            TestJWS.base64URLEncode(Array(#"{"alg":"none","kid":"DEMOKEY123","typ":"JWT"}"#.utf8)) + "."
            + TestJWS.base64URLEncode(Array(payload.utf8)) + "."
        #expect(TestJWS.verifyError(none)?.field == "alg")

        // Not JSON, not an object, duplicate member.
        let body = TestJWS.base64URLEncode(Array(payload.utf8))
        expectMalformed(TestJWS.base64URLEncode(Array("not json".utf8)) + "." + body + ".AAAA", mentioning: "header")
        expectMalformed(TestJWS.base64URLEncode(Array("[]".utf8)) + "." + body + ".AAAA", mentioning: "header")
        expectMalformed(
            try TestJWS.sign(
                header: #"{"alg":"ES256","alg":"ES256","kid":"DEMOKEY123","typ":"JWT"}"#, payload: payload),
            mentioning: "duplicate")
    }

    // MARK: - Compact serialization

    @Test func segmentsMustBeThreeUnpaddedBase64URL() throws {
        let compact = try validJWS()
        let parts = TestJWS.segments(compact)
        #expect(parts[2].count == 86)  // 64 bytes → 86 characters, 2 short of a multiple of 4
        expectMalformed(compact + "==", mentioning: "padded")
        expectMalformed(compact + "=", mentioning: "base64url")  // not even valid padding
        let payloadPadding = String(repeating: "=", count: (4 - parts[1].count % 4) % 4)
        if !payloadPadding.isEmpty {
            expectMalformed(
                [parts[0], parts[1] + payloadPadding, parts[2]].joined(separator: "."), mentioning: "padded")
        }

        expectMalformed(parts[0] + "." + parts[1], mentioning: "found 2")
        expectMalformed(compact + ".", mentioning: "found 4")
        expectMalformed(compact + "." + parts[2], mentioning: "found 4")
        expectMalformed("", mentioning: "found 1")
        expectMalformed("abc", mentioning: "found 1")

        // Standard-alphabet characters and other junk are not base64url.
        let standard = parts[2].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        if standard != parts[2] {
            expectMalformed([parts[0], parts[1], standard].joined(separator: "."), mentioning: "base64url")
        }
        expectMalformed([parts[0], parts[1] + "!", parts[2]].joined(separator: "."), mentioning: "base64url")
        expectMalformed([parts[0], parts[1], parts[2] + "A"].joined(separator: "."), mentioning: "found 65")
        expectMalformed([parts[0], parts[1], parts[2] + "AAA"].joined(separator: "."), mentioning: "base64url")
    }

    @Test func payloadMustBeAJSONObject() throws {
        expectMalformed(try sign("not json"), mentioning: "payload")
        expectMalformed(try sign("[1,2]"), mentioning: "payload")
        expectMalformed(try sign(Self.promo() + " x"), mentioning: "payload")
        expectMalformed(
            try sign(#"{"iss":"\#(Self.iss)","iss":"\#(Self.iss)","iat":1,"aud":"promotional-offer"}"#),
            mentioning: "duplicate")
    }

    // MARK: - Kind

    @Test func wrongKindIsReported() throws {
        let compact = try validJWS()
        for kind in JWSKind.allCases where kind != .promotionalOffer {
            let error = TestJWS.verifyError(compact, as: kind)
            #expect(error == .wrongKind(expected: kind, actual: .promotionalOffer))
            #expect(error?.field == "aud")
        }
        #expect(try TestJWS.verifier.verify(compact, as: .promotionalOffer).kind == .promotionalOffer)
        #expect(try TestJWS.verifier.verify(compact).kind == .promotionalOffer)
        #expect(
            VerificationError.wrongKind(expected: .introductoryOfferEligibility, actual: .promotionalOffer)
                .errorDescription?.contains("introductory-offer-eligibility") == true)
    }

    // MARK: - Claims

    @Test func iatMustBeAnInteger() throws {
        try expectInvalidClaim(Self.promo(iat: "1700000000.5"), field: "iat", mentioning: "fractional")
        try expectInvalidClaim(Self.promo(iat: "1700000000.0"), field: "iat", mentioning: "fractional")
        try expectInvalidClaim(Self.promo(iat: "1.7e9"), field: "iat", mentioning: "fractional")
        try expectInvalidClaim(Self.promo(iat: #""1700000000""#), field: "iat", mentioning: "found a string")
        try expectInvalidClaim(Self.promo(iat: "null"), field: "iat", mentioning: "null")
        try expectInvalidClaim(Self.promo(iat: "99999999999999999999"), field: "iat")
        try expectError(
            #"{"iss":"\#(Self.iss)","aud":"promotional-offer","bid":"\#(Self.bid)","nonce":"\#(Self.nonce)","productId":"p","offerIdentifier":"o"}"#,
            .missingClaim("iat"))
    }

    @Test func storeKitRequestsMustNotCarryExp() throws {
        try expectError(
            Self.promo(tail: #","productId":"p","offerIdentifier":"o","exp":1700000300"#), .unexpectedClaim("exp"))
        let error = TestJWS.verifyError(try sign(Self.promo(tail: #","productId":"p","offerIdentifier":"o","exp":1"#)))
        #expect(error?.errorDescription == "Claim exp is not allowed in this kind of JWS.")
    }

    @Test func audMustBeOneKnownString() throws {
        try expectInvalidClaim(
            Self.promo(aud: #"["promotional-offer"]"#), field: "aud", mentioning: "a single string, found an array")
        try expectInvalidClaim(Self.promo(aud: #""promotional-offers""#), field: "aud", mentioning: "promotional-offer")
        try expectInvalidClaim(Self.promo(aud: "1"), field: "aud")
        try expectError(
            #"{"iss":"\#(Self.iss)","iat":1700000000,"bid":"\#(Self.bid)","nonce":"\#(Self.nonce)","productId":"p","offerIdentifier":"o"}"#,
            .missingClaim("aud"))
    }

    @Test func nonceMustBeALowerCaseUUIDv4() throws {
        try expectInvalidClaim(
            Self.promo(nonce: #""\#(Self.nonce.uppercased())""#), field: "nonce", mentioning: "lower-case UUID v4")
        // Version 1 (third group starts with 1), otherwise valid.
        try expectInvalidClaim(Self.promo(nonce: #""3f2504e0-4f89-11d3-9a0c-0305e82c3301""#), field: "nonce")
        // Wrong variant (fourth group starts with c).
        try expectInvalidClaim(Self.promo(nonce: #""3f2504e0-4f89-41d3-ca0c-0305e82c3301""#), field: "nonce")
        try expectInvalidClaim(Self.promo(nonce: #""3f2504e04f8941d39a0c0305e82c3301""#), field: "nonce")
        try expectInvalidClaim(Self.promo(nonce: #""not-a-uuid""#), field: "nonce")
        try expectInvalidClaim(Self.promo(nonce: "42"), field: "nonce", mentioning: "an integer")
        try expectError(
            #"{"iss":"\#(Self.iss)","iat":1700000000,"aud":"promotional-offer","bid":"\#(Self.bid)","productId":"p","offerIdentifier":"o"}"#,
            .missingClaim("nonce"))
        // Every v4 variant digit is accepted.
        for variant in ["8", "9", "a", "b"] {
            _ = try TestJWS.verifier.verify(
                try sign(Self.promo(nonce: #""3f2504e0-4f89-41d3-\#(variant)a0c-0305e82c3301""#)))
        }
    }

    @Test func requiredAndUnexpectedClaims() throws {
        try expectError(Self.promo(tail: #","offerIdentifier":"o""#), .missingClaim("productId"))
        try expectError(Self.promo(tail: #","productId":"p""#), .missingClaim("offerIdentifier"))
        try expectError(
            Self.promo(tail: #","productId":"p","offerIdentifier":"o","foo":"bar""#), .unexpectedClaim("foo"))
        try expectError(
            Self.promo(tail: #","productId":"p","offerIdentifier":"o","allowIntroductoryOffer":true"#),
            .unexpectedClaim("allowIntroductoryOffer"))
        try expectInvalidClaim(
            Self.promo(tail: #","productId":"","offerIdentifier":"o""#), field: "productId", mentioning: "non-empty")
        try expectInvalidClaim(Self.promo(tail: #","productId":7,"offerIdentifier":"o""#), field: "productId")
        try expectInvalidClaim(
            Self.promo(tail: #","productId":"p","offerIdentifier":"o","transactionId":123"#), field: "transactionId")
        // iss and bid.
        try expectInvalidClaim(
            #"{"iss":"issuer","iat":1700000000,"aud":"promotional-offer","bid":"\#(Self.bid)","nonce":"\#(Self.nonce)","productId":"p","offerIdentifier":"o"}"#,
            field: "iss", mentioning: "UUID")
        try expectError(
            #"{"iss":"\#(Self.iss)","iat":1700000000,"aud":"promotional-offer","nonce":"\#(Self.nonce)","productId":"p","offerIdentifier":"o"}"#,
            .missingClaim("bid"))
        #expect(VerificationError.missingClaim("productId").errorDescription == "Claim productId is missing.")
    }

    @Test func introductoryOfferEligibilityClaims() throws {
        func intro(_ tail: String) -> String {
            #"{"iss":"\#(Self.iss)","iat":1700000000,"aud":"introductory-offer-eligibility","bid":"\#(Self.bid)","nonce":"\#(Self.nonce)"\#(tail)}"#
        }
        _ = try TestJWS.verifier.verify(
            try sign(intro(#","productId":"p","allowIntroductoryOffer":false,"transactionId":"1""#)),
            as: .introductoryOfferEligibility)
        try expectInvalidClaim(
            intro(#","productId":"p","allowIntroductoryOffer":"true","transactionId":"1""#),
            field: "allowIntroductoryOffer",
            mentioning: "a boolean, found a string")
        try expectInvalidClaim(
            intro(#","productId":"p","allowIntroductoryOffer":1,"transactionId":"1""#), field: "allowIntroductoryOffer")
        try expectError(intro(#","productId":"p","allowIntroductoryOffer":true"#), .missingClaim("transactionId"))
        try expectError(intro(#","productId":"p","transactionId":"1""#), .missingClaim("allowIntroductoryOffer"))
        try expectError(
            intro(#","productId":"p","allowIntroductoryOffer":true,"transactionId":"1","offerIdentifier":"o""#),
            .unexpectedClaim("offerIdentifier"))
    }

    @Test func serverTokenLifetimeIsChecked() throws {
        func server(iat: Int64, exp: Int64?) -> String {
            #"{"iss":"\#(Self.iss)","iat":\#(iat)\#(exp.map { #","exp":\#($0)"# } ?? ""),"aud":"appstoreconnect-v1","bid":"\#(Self.bid)"}"#
        }
        _ = try TestJWS.verifier.verify(try sign(server(iat: 1_700_000_000, exp: 1_700_003_600)), as: .serverAPIToken)
        try expectInvalidClaim(server(iat: 1_700_000_000, exp: 1_700_003_601), field: "exp", mentioning: "3600")
        try expectInvalidClaim(server(iat: 1_700_000_000, exp: 1_700_000_000), field: "exp")
        try expectInvalidClaim(server(iat: 1_700_000_000, exp: 1_699_999_999), field: "exp")
        try expectError(server(iat: 1_700_000_000, exp: nil), .missingClaim("exp"))
        try expectError(
            #"{"iss":"\#(Self.iss)","iat":1700000000,"exp":1700000300,"aud":"appstoreconnect-v1","bid":"\#(Self.bid)","nonce":"\#(Self.nonce)"}"#,
            .unexpectedClaim("nonce"))
    }

    @Test func connectTokenClaimsAreChecked() throws {
        func connect(_ head: String, exp: Int64 = 1_700_000_900, tail: String = "") -> String {
            #"{\#(head)"iat":1700000000,"exp":\#(exp),"aud":"appstoreconnect-v1"\#(tail)}"#
        }
        let team = #""iss":"\#(Self.iss)","#
        _ = try TestJWS.verifier.verify(try sign(connect(team, exp: 1_700_001_200)), as: .connectAPIToken)
        try expectInvalidClaim(connect(team, exp: 1_700_001_201), field: "exp", mentioning: "1200")
        try expectError(connect(#""iss":"\#(Self.iss)","sub":"user","#), .unexpectedClaim("sub"))
        try expectInvalidClaim(connect(#""sub":"admin","#), field: "sub", mentioning: "user")
        try expectError(connect(""), .missingClaim("iss"))
        try expectInvalidClaim(connect(team, tail: #","scope":"GET /v1/apps""#), field: "scope", mentioning: "array")
        try expectInvalidClaim(connect(team, tail: #","scope":["GET /v1/apps",1]"#), field: "scope")
        let verified = try TestJWS.verifier.verify(try sign(connect(team, tail: #","scope":[]"#)))
        #expect(verified.claims.scope == [])
    }

    @Test func advancedCommerceRequestClaimIsChecked() throws {
        func commerce(_ request: String) -> String {
            #"{"iss":"\#(Self.iss)","iat":1700000000,"aud":"advanced-commerce-api","bid":"\#(Self.bid)","nonce":"\#(Self.nonce)","request":\#(request)}"#
        }
        let valid = AdvancedCommerce.InAppRequest.reactivateSubscription(
            .init(requestInfo: .init(requestReferenceId: TestJWS.fixedNonce), transactionId: "1"))
        let encoded = Data(valid.jsonBytes).base64EncodedString()
        #expect(try TestJWS.verifier.verify(try sign(commerce(#""\#(encoded)""#))).advancedCommerceRequest == valid)

        try expectInvalidClaim(commerce(#""!!!not base64!!!""#), field: "request", mentioning: "base64")
        // base64url instead of standard, and missing padding.
        let urlSafe = TestJWS.base64URLEncode(valid.jsonBytes)
        if urlSafe.contains("-") || urlSafe.contains("_") || encoded.hasSuffix("=") {
            try expectInvalidClaim(commerce(#""\#(urlSafe)""#), field: "request", mentioning: "padded")
        }
        try expectInvalidClaim(commerce("{}"), field: "request", mentioning: "found an object")
        // Valid base64 of something that is not a request.
        let notJSON = Data("hello".utf8).base64EncodedString()
        try expectInvalidClaim(commerce(#""\#(notJSON)""#), field: "request", mentioning: "not valid JSON")
        let badRequest = Data(
            #"{"operation":"REACTIVATE_SUBSCRIPTION","version":"1","requestInfo":{"requestReferenceId":"3f2504e0-4f89-41d3-9a0c-0305e82c3301"},"transactionId":""}"#
                .utf8
        )
        .base64EncodedString()
        try expectInvalidClaim(commerce(#""\#(badRequest)""#), field: "request", mentioning: "transactionId")
        let unknownField = Data(
            #"{"operation":"REACTIVATE_SUBSCRIPTION","version":"1","requestInfo":{"requestReferenceId":"3f2504e0-4f89-41d3-9a0c-0305e82c3301"},"transactionId":"1","sku":"x"}"#
                .utf8
        )
        .base64EncodedString()
        try expectInvalidClaim(commerce(#""\#(unknownField)""#), field: "request", mentioning: "sku")
        try expectError(
            #"{"iss":"\#(Self.iss)","iat":1700000000,"aud":"advanced-commerce-api","bid":"\#(Self.bid)","nonce":"\#(Self.nonce)"}"#,
            .missingClaim("request"))
    }

    @Test func errorFieldsAndDescriptions() {
        #expect(VerificationError.signatureMismatch.field == nil)
        #expect(VerificationError.malformed("x").field == nil)
        #expect(VerificationError.invalidPublicKey("x").field == nil)
        #expect(VerificationError.invalidHeader(field: "alg", expected: "ES256").field == "alg")
        #expect(VerificationError.unexpectedClaim("exp").field == "exp")
        #expect(VerificationError.missingClaim("iat").field == "iat")
        for error: VerificationError in [
            .malformed("x"), .invalidHeader(field: "alg", expected: "y"), .signatureMismatch, .missingClaim("iat"),
            .invalidClaim(field: "nonce", expected: "z"), .unexpectedClaim("exp"),
            .wrongKind(expected: .promotionalOffer, actual: .advancedCommerce), .invalidPublicKey("k"),
        ] {
            #expect(error.errorDescription?.isEmpty == false)
            #expect(error.localizedDescription == error.errorDescription)
            if case .wrongKind = error { continue }
            if let field = error.field {
                #expect(error.errorDescription?.contains(field) == true)
            }
        }
    }
}
