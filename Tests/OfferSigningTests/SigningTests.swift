import Foundation
import Testing

@testable import OfferSigning

/// Exact bytes of every StoreKit compact JWS (docs/formats.md §3) and of the legacy signature (docs/formats.md §2).
@Suite("Signing")
struct SigningTests {
    // MARK: - Compact JWS: exact header and payload bytes

    @Test func promotionalOfferPayloadIsExact() throws {
        let jws = try TestJWS.fixedSigner().sign(
            PromotionalOfferRequest(
                productId: "com.example.monthly", offerIdentifier: "WINBACK50", transactionId: "2000000123456789"))
        #expect(TestJWS.headerText(jws.serialization) == TestJWS.headerJSON)
        #expect(
            TestJWS.payloadText(jws.serialization)
                == #"{"iss":"98802e6e-bab8-4f06-8c88-a2582cda3c9c","iat":1700000000,"aud":"promotional-offer","bid":"com.example.offerkit.demo","nonce":"3f2504e0-4f89-41d3-9a0c-0305e82c3301","productId":"com.example.monthly","offerIdentifier":"WINBACK50","transactionId":"2000000123456789"}"#
        )
        #expect(jws.nonce == TestJWS.fixedNonce)
        // issuedAt is the `iat` claim: whole seconds, rounded down from the clock's 1_700_000_000.75.
        #expect(jws.issuedAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(jws.description == jws.serialization)
        #expect(jws.signingInput == "\(jws.headerSegment).\(jws.payloadSegment)")
    }

    @Test func promotionalOfferLeavesOutNilTransactionId() throws {
        let jws = try TestJWS.fixedSigner().sign(
            PromotionalOfferRequest(productId: "com.example.monthly", offerIdentifier: "WINBACK50"))
        #expect(
            TestJWS.payloadText(jws.serialization)
                == #"{"iss":"98802e6e-bab8-4f06-8c88-a2582cda3c9c","iat":1700000000,"aud":"promotional-offer","bid":"com.example.offerkit.demo","nonce":"3f2504e0-4f89-41d3-9a0c-0305e82c3301","productId":"com.example.monthly","offerIdentifier":"WINBACK50"}"#
        )
        let verified = try TestJWS.verifier.verify(jws.serialization, as: .promotionalOffer)
        #expect(verified.claims.transactionId == nil)
        #expect(!verified.payloadJSON.contains("transactionId"))
    }

    @Test(arguments: [true, false])
    func introductoryOfferEligibilityPayloadIsExact(allow: Bool) throws {
        let jws = try TestJWS.fixedSigner().sign(
            IntroductoryOfferEligibilityRequest(
                productId: "com.example.yearly", allowIntroductoryOffer: allow, transactionId: "2000000987654321"))
        #expect(TestJWS.headerText(jws.serialization) == TestJWS.headerJSON)
        #expect(
            TestJWS.payloadText(jws.serialization)
                == #"{"iss":"98802e6e-bab8-4f06-8c88-a2582cda3c9c","iat":1700000000,"aud":"introductory-offer-eligibility","bid":"com.example.offerkit.demo","nonce":"3f2504e0-4f89-41d3-9a0c-0305e82c3301","productId":"com.example.yearly","allowIntroductoryOffer":\#(allow),"transactionId":"2000000987654321"}"#
        )
        let verified = try TestJWS.verifier.verify(jws.serialization, as: .introductoryOfferEligibility)
        #expect(verified.claims.allowIntroductoryOffer == allow)
    }

    @Test func advancedCommercePayloadIsExact() throws {
        let request = AdvancedCommerce.InAppRequest.reactivateSubscription(
            .init(
                requestInfo: .init(requestReferenceId: UUID(uuidString: "11111111-2222-4333-8444-555555555555")!),
                transactionId: "2000000111111111"))
        let requestJSON =
            #"{"operation":"REACTIVATE_SUBSCRIPTION","version":"1","requestInfo":{"requestReferenceId":"11111111-2222-4333-8444-555555555555"},"transactionId":"2000000111111111"}"#
        #expect(request.jsonBytes == Array(requestJSON.utf8))
        let encoded = Data(requestJSON.utf8).base64EncodedString()  // standard, padded
        let jws = try TestJWS.fixedSigner().sign(request)
        #expect(TestJWS.headerText(jws.serialization) == TestJWS.headerJSON)
        #expect(
            TestJWS.payloadText(jws.serialization)
                == #"{"iss":"98802e6e-bab8-4f06-8c88-a2582cda3c9c","iat":1700000000,"aud":"advanced-commerce-api","bid":"com.example.offerkit.demo","nonce":"3f2504e0-4f89-41d3-9a0c-0305e82c3301","request":"\#(encoded)"}"#
        )
        let verified = try TestJWS.verifier.verify(jws.serialization, as: .advancedCommerce)
        #expect(verified.advancedCommerceRequest == request)
        #expect(verified.claims.request == encoded)
    }

    @Test func headerSegmentIsTheFixedHeader() throws {
        let jws = try TestJWS.fixedSigner().sign(PromotionalOfferRequest(productId: "p", offerIdentifier: "o"))
        #expect(String(jws.headerSegment) == TestJWS.base64URLEncode(Array(TestJWS.headerJSON.utf8)))
        #expect(JWSEncoder.headerJSON(keyId: "DEMOKEY123") == TestJWS.headerJSON)
    }

    // MARK: - iat and nonce forms

    @Test(arguments: [
        (1_700_000_000.0, Int64(1_700_000_000)),
        (1_700_000_000.25, 1_700_000_000),
        (1_700_000_000.999_999, 1_700_000_000),
        (1_700_000_001.0, 1_700_000_001),
        (946_684_800.5, 946_684_800),  // 2000-01-01, the earliest time signed
    ])
    func iatIsFlooredToWholeSeconds(date: Double, expected: Int64) throws {
        let signer = try Demo.signer(nonces: .fixed(TestJWS.fixedNonce))
        let jws = try signer.sign(
            PromotionalOfferRequest(productId: "p", offerIdentifier: "o"),
            issuedAt: Date(timeIntervalSince1970: date))
        #expect(TestJWS.payloadText(jws.serialization).contains(#""iat":\#(expected),"#))
        let verified = try TestJWS.verifier.verify(jws.serialization)
        #expect(verified.claims.iat == expected)
    }

    @Test func explicitNonceAndIssuedAtOverrideTheSigner() throws {
        let signer = try TestJWS.fixedSigner()
        let other = UUID(uuidString: "A0B1C2D3-E4F5-4677-8899-AABBCCDDEEFF")!
        let jws = try signer.sign(
            PromotionalOfferRequest(productId: "p", offerIdentifier: "o"), nonce: other,
            issuedAt: Date(timeIntervalSince1970: 1_234_567_890.5))
        let payload = TestJWS.payloadText(jws.serialization)
        #expect(payload.contains(#""nonce":"a0b1c2d3-e4f5-4677-8899-aabbccddeeff""#))
        #expect(payload.contains(#""iat":1234567890,"#))
        #expect(jws.nonce == other)
    }

    @Test func nonceIsLowerCaseEvenFromAnUpperCaseUUID() throws {
        // UUID(uuidString:) accepts upper case; uuidString prints upper case.
        let upper = "ABCDEF01-2345-4678-9ABC-DEF012345678"
        let uuid = try #require(UUID(uuidString: upper))
        #expect(uuid.uuidString == upper)
        let jws = try Demo.signer(nonces: .fixed(uuid)).sign(
            PromotionalOfferRequest(productId: "p", offerIdentifier: "o"))
        let payload = TestJWS.payloadText(jws.serialization)
        #expect(payload.contains(#""nonce":"abcdef01-2345-4678-9abc-def012345678""#))
        #expect(!payload.contains(upper))
        let verified = try TestJWS.verifier.verify(jws.serialization)
        #expect(verified.claims.nonce == upper.lowercased())
    }

    @Test func randomNoncesAreLowerCaseV4() throws {
        let signer = try Demo.signer()
        for _ in 0..<50 {
            let jws = try signer.sign(PromotionalOfferRequest(productId: "p", offerIdentifier: "o"))
            let nonce = try #require(try TestJWS.verifier.verify(jws.serialization).claims.nonce)
            #expect(nonce == nonce.lowercased())
            let characters = Array(nonce)
            #expect(characters[14] == "4")
            #expect("89ab".contains(characters[19]))
            #expect(jws.nonce?.uuidString.lowercased() == nonce)
        }
    }

    // MARK: - Byte stability and the signature segment

    @Test func sameInputsGiveSameHeaderAndPayloadButFreshSignatures() throws {
        let signer = try TestJWS.fixedSigner()
        let request = PromotionalOfferRequest(productId: "com.example.monthly", offerIdentifier: "WINBACK50")
        let first = try signer.sign(request)
        let second = try signer.sign(request)
        #expect(first.headerSegment == second.headerSegment)
        #expect(first.payloadSegment == second.payloadSegment)
        #expect(first.signatureSegment != second.signatureSegment)  // ECDSA is randomized
        #expect(
            try TestJWS.verifier.verify(first.serialization).payloadJSON
                == TestJWS.verifier.verify(second.serialization).payloadJSON)
    }

    @Test func segmentsAreUnpaddedBase64URLAndSignatureIs64RawBytes() throws {
        let signer = try Demo.signer()
        // Product ids of several lengths so every payload length modulo 3 occurs.
        for length in 1...9 {
            let request = PromotionalOfferRequest(
                productId: String(repeating: "p", count: length), offerIdentifier: "o?>~", transactionId: "1")
            let jws = try signer.sign(request)
            #expect(!jws.serialization.contains("="))
            #expect(!jws.serialization.contains("+"))
            #expect(!jws.serialization.contains("/"))
            let parts = TestJWS.segments(jws.serialization)
            let signature = try #require(TestJWS.base64URLDecode(parts[2]))
            #expect(signature.count == 64)
            #expect(parts[2].count == 86)
        }
    }

    @Test func nonASCIIAndEscapedCharactersAreSignedAsJSON() throws {
        let jws = try TestJWS.fixedSigner().sign(
            PromotionalOfferRequest(productId: #"caf\#u{E9} "quoted" back\slash 🎉"#, offerIdentifier: "ü/x"))
        #expect(
            TestJWS.payloadText(jws.serialization).hasSuffix(
                #""productId":"café \"quoted\" back\\slash 🎉","offerIdentifier":"ü/x"}"#))
        let verified = try TestJWS.verifier.verify(jws.serialization)
        #expect(verified.claims.productId == #"café "quoted" back\slash 🎉"#)
    }

    // MARK: - Request validation before signing

    @Test func invalidRequestsAreRejectedWithTheField() throws {
        let signer = try TestJWS.fixedSigner()
        #expect(
            TestJWS.validationError {
                _ = try signer.sign(PromotionalOfferRequest(productId: "", offerIdentifier: "o"))
            }
                == .empty(field: "productId"))
        #expect(
            TestJWS.validationError {
                _ = try signer.sign(PromotionalOfferRequest(productId: "p", offerIdentifier: ""))
            }
                == .empty(field: "offerIdentifier"))
        #expect(
            TestJWS.validationError {
                _ = try signer.sign(PromotionalOfferRequest(productId: "p", offerIdentifier: "o", transactionId: ""))
            } == .empty(field: "transactionId"))
        #expect(
            TestJWS.validationError {
                _ = try signer.sign(PromotionalOfferRequest(productId: "a\nb", offerIdentifier: "o"))
            }?.field == "productId")
        #expect(
            TestJWS.validationError {
                _ = try signer.sign(PromotionalOfferRequest(productId: "p", offerIdentifier: "o\u{2063}x"))
            }?.field == "offerIdentifier")
        #expect(
            TestJWS.validationError {
                _ = try signer.sign(
                    IntroductoryOfferEligibilityRequest(productId: "p", allowIntroductoryOffer: true, transactionId: "")
                )
            } == .empty(field: "transactionId"))
        #expect(
            TestJWS.validationError {
                _ = try signer.sign(
                    IntroductoryOfferEligibilityRequest(
                        productId: "", allowIntroductoryOffer: false, transactionId: "1"))
            } == .empty(field: "productId"))
        if case .invalidFormat(let field, _)? = TestJWS.validationError({
            _ = try signer.sign(PromotionalOfferRequest(productId: "p\u{7F}", offerIdentifier: "o"))
        }) {
            #expect(field == "productId")
        } else {
            Issue.record("DEL (a control character) must be rejected as invalidFormat")
        }
    }

    // MARK: - Legacy signature (version 1)

    private static let legacyNonce = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    private func legacySigner() throws -> OfferSigner {
        try Demo.signer(clock: .fixed(TestJWS.fixedDate), nonces: .fixed(Self.legacyNonce))
    }

    /// The message of docs/formats.md §2, built independently of the library.
    private func legacyMessage(
        productId: String, offerId: String, token: String, nonce: String, timestamp: Int64
    ) -> [UInt8] {
        let fields = [Demo.bundleId, Demo.keyId, productId, offerId, token, nonce, String(timestamp)]
        return Array(fields.joined(separator: "\u{2063}").utf8)
    }

    @Test func legacySignatureFieldsAndMessage() throws {
        let token = "A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D"
        let signature = try legacySigner().sign(
            LegacyPromotionalOfferRequest(
                productId: "com.example.monthly", offerIdentifier: "WINBACK50", appAccountToken: token))
        #expect(signature.keyId == "DEMOKEY123")
        #expect(signature.nonce == Self.legacyNonce)
        #expect(signature.nonceString == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
        #expect(signature.timestamp == 1_700_000_000_750)  // milliseconds, from the clock
        #expect(signature.appAccountToken == token.lowercased())
        #expect(signature.productId == "com.example.monthly")
        #expect(signature.offerIdentifier == "WINBACK50")

        // Standard base64 with padding, of a DER SEQUENCE.
        #expect(!signature.signature.contains("-") && !signature.signature.contains("_"))
        #expect(signature.signature.count % 4 == 0)
        let der = try #require(Data(base64Encoded: signature.signature).map(Array.init))
        #expect(der.first == 0x30)
        #expect(Int(der[1]) == der.count - 2)
        #expect(signature.signatureBytes == der)

        // It signs exactly the seven fields joined by U+2063, token and nonce lower-cased.
        let message = legacyMessage(
            productId: "com.example.monthly", offerId: "WINBACK50", token: token.lowercased(),
            nonce: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", timestamp: 1_700_000_000_750)
        let reference = try Demo.key.privateKey.signature(for: [0])
        let ecdsa = try type(of: reference).init(derRepresentation: der)
        #expect(Demo.key.publicKey.isValidSignature(ecdsa, for: message))
        let upperMessage = legacyMessage(
            productId: "com.example.monthly", offerId: "WINBACK50", token: token,
            nonce: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", timestamp: 1_700_000_000_750)
        #expect(!Demo.key.publicKey.isValidSignature(ecdsa, for: upperMessage))

        try TestJWS.verifier.verify(signature, bundleId: Demo.bundleId)
    }

    @Test func legacySignatureWithEmptyTokenAndExplicitTimestamp() throws {
        let signature = try legacySigner().sign(
            LegacyPromotionalOfferRequest(productId: "com.example.monthly", offerIdentifier: "WINBACK50"),
            timestamp: 1_600_000_000_123)
        #expect(signature.appAccountToken == "")
        #expect(signature.timestamp == 1_600_000_000_123)
        let message = legacyMessage(
            productId: "com.example.monthly", offerId: "WINBACK50", token: "",
            nonce: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", timestamp: 1_600_000_000_123)
        let reference = try Demo.key.privateKey.signature(for: [0])
        let ecdsa = try type(of: reference).init(derRepresentation: signature.signatureBytes)
        #expect(Demo.key.publicKey.isValidSignature(ecdsa, for: message))
        try TestJWS.verifier.verify(signature, bundleId: Demo.bundleId)
    }

    @Test func legacySignatureRejectsNegativeTimestampAndBadFields() throws {
        let signer = try legacySigner()
        let request = LegacyPromotionalOfferRequest(productId: "p", offerIdentifier: "o")
        #expect(TestJWS.validationError { _ = try signer.sign(request, timestamp: -1) }?.field == "timestamp")
        #expect(
            TestJWS.validationError {
                _ = try signer.sign(LegacyPromotionalOfferRequest(productId: "", offerIdentifier: "o"))
            }
                == .empty(field: "productId"))
        #expect(
            TestJWS.validationError {
                _ = try signer.sign(LegacyPromotionalOfferRequest(productId: "p\u{2063}o", offerIdentifier: "o"))
            }?.field == "productId")
        #expect(
            TestJWS.validationError {
                _ = try signer.sign(
                    LegacyPromotionalOfferRequest(productId: "p", offerIdentifier: "o", appAccountToken: "x\u{2063}y"))
            }?.field == "appAccountToken")
    }

    @Test func tamperedLegacySignatureFails() throws {
        let good = try legacySigner().sign(
            LegacyPromotionalOfferRequest(
                productId: "com.example.monthly", offerIdentifier: "WINBACK50",
                appAccountToken: "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"))
        let verifier = TestJWS.verifier
        try verifier.verify(good, bundleId: Demo.bundleId)

        func copy(
            keyId: String? = nil, nonce: UUID? = nil, timestamp: Int64? = nil, signature: String? = nil,
            productId: String? = nil, offerIdentifier: String? = nil, appAccountToken: String? = nil
        ) -> LegacyPromotionalOfferSignature {
            LegacyPromotionalOfferSignature(
                keyId: keyId ?? good.keyId, nonce: nonce ?? good.nonce, timestamp: timestamp ?? good.timestamp,
                signature: signature ?? good.signature, productId: productId ?? good.productId,
                offerIdentifier: offerIdentifier ?? good.offerIdentifier,
                appAccountToken: appAccountToken ?? good.appAccountToken)
        }
        let tampered: [LegacyPromotionalOfferSignature] = [
            copy(productId: "com.example.yearly"),
            copy(offerIdentifier: "WINBACK51"),
            copy(timestamp: good.timestamp + 1),
            copy(nonce: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E50")!),
            copy(appAccountToken: ""),
            copy(appAccountToken: "b1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"),
            copy(keyId: "OTHERKEY12"),
        ]
        for signature in tampered {
            #expect(
                TestJWS.verificationError { () throws(VerificationError) in
                    try verifier.verify(signature, bundleId: Demo.bundleId)
                } == .signatureMismatch)
        }
        #expect(
            TestJWS.verificationError { () throws(VerificationError) in
                try verifier.verify(good, bundleId: "com.example.other")
            } == .signatureMismatch)
        #expect(
            TestJWS.verificationError { () throws(VerificationError) in
                try verifier.verify(copy(signature: "not base64!"), bundleId: Demo.bundleId)
            }.map { if case .malformed = $0 { true } else { false } } == true)
        // A valid base64 string that is not this message's signature.
        var otherBytes = good.signatureBytes
        otherBytes[otherBytes.count - 1] ^= 0x01
        #expect(
            TestJWS.verificationError { () throws(VerificationError) in
                try verifier.verify(copy(signature: Data(otherBytes).base64EncodedString()), bundleId: Demo.bundleId)
            } == .signatureMismatch)
    }

    @Test func legacySignatureEncodesAsPromotionalOfferSignatureV1() throws {
        let signer = try legacySigner()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]

        let withToken = try signer.sign(
            LegacyPromotionalOfferRequest(
                productId: "com.example.monthly", offerIdentifier: "WINBACK50",
                appAccountToken: "A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D"))
        let object = try #require(
            try JSONSerialization.jsonObject(with: encoder.encode(withToken)) as? [String: Any])
        #expect(
            Set(object.keys)
                == [
                    "encodedSignature", "productId", "nonce", "timestamp", "keyId", "offerIdentifier",
                    "appAccountToken",
                ])
        #expect(object["encodedSignature"] as? String == withToken.signature)
        #expect(object["productId"] as? String == "com.example.monthly")
        #expect(object["nonce"] as? String == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
        #expect((object["timestamp"] as? NSNumber)?.int64Value == 1_700_000_000_750)
        #expect(object["keyId"] as? String == "DEMOKEY123")
        #expect(object["offerIdentifier"] as? String == "WINBACK50")
        #expect(object["appAccountToken"] as? String == "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d")
        let decoded = try JSONDecoder().decode(LegacyPromotionalOfferSignature.self, from: encoder.encode(withToken))
        #expect(decoded == withToken)

        let withoutToken = try signer.sign(
            LegacyPromotionalOfferRequest(productId: "com.example.monthly", offerIdentifier: "WINBACK50"))
        let bare = try #require(
            try JSONSerialization.jsonObject(with: encoder.encode(withoutToken)) as? [String: Any])
        #expect(Set(bare.keys) == ["encodedSignature", "productId", "nonce", "timestamp", "keyId", "offerIdentifier"])
        let decodedBare = try JSONDecoder().decode(
            LegacyPromotionalOfferSignature.self, from: encoder.encode(withoutToken))
        #expect(decodedBare == withoutToken)
        try TestJWS.verifier.verify(decodedBare, bundleId: Demo.bundleId)
    }
}
