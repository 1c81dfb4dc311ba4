import Foundation
import OfferJSON
import Testing

@testable import OfferSigning

/// The operation names of ``SigningOperation`` on the library's surfaces: ``JWSKind`` names,
/// ``BatchSigner`` types and fields (current names out, deprecated ones accepted in), and the
/// legacy signature's JSON object.
@Suite("Operation and field names")
struct OperationNameTests {
    @Test func jwsKindsAreNamedAsOperations() {
        for kind in JWSKind.allCases {
            #expect(SigningOperation(rawValue: kind.rawValue) != nil, "\(kind.rawValue) is an operation name")
            #expect(JWSKind.named(kind.rawValue)! == (kind, false))
        }
        #expect(JWSKind.advancedCommerce.rawValue == "advanced-commerce")
        #expect(JWSKind.advancedCommerce.audience == "advanced-commerce-api", "the aud claim stays Apple's")
        #expect(JWSKind.named("advanced-commerce-api")! == (.advancedCommerce, true))
        #expect(JWSKind.named("intro-eligibility")! == (.introductoryOfferEligibility, true))
        #expect(JWSKind.named("legacy-promotional-offer") == nil, "not a JWS")
        #expect(JWSKind.named("nonsense") == nil)
    }

    @Test func batchTypesAreTheOperationNames() {
        #expect(BatchSigner.types == SigningOperation.allCases.map(\.rawValue))
        #expect(BatchSigner.types.contains("connect-api-token"))
    }

    static func run(_ line: String) throws -> (object: JSONValue, deprecated: [String]) {
        let batch = BatchSigner(signer: try TestJWS.fixedSigner())
        let result = batch.process(line: Array(line.utf8), lineNumber: 1)
        return (try JSONValue.parse(result.json), result.deprecatedSpellings)
    }

    @Test func batchPrintsCurrentNamesAndReportsDeprecatedOnes() throws {
        let old = try Self.run(
            #"{"type":"promotional-offer-v1","productId":"p","offerId":"o","nonce":"3f2504e0-4f89-41d3-9a0c-0305e82c3301","timestamp":1700000000123}"#
        )
        #expect(old.object["type"] == .string("legacy-promotional-offer"))
        #expect(old.object["offerIdentifier"] == .string("o") && old.object["offerId"] == nil)
        #expect(Set(old.deprecated) == ["promotional-offer-v1", "offerId"])
        let current = try Self.run(
            #"{"type":"legacy-promotional-offer","productId":"p","offerIdentifier":"o","nonce":"3f2504e0-4f89-41d3-9a0c-0305e82c3301","timestamp":1700000000123}"#
        )
        #expect(current.deprecated.isEmpty)
        #expect(current.object["signature"] != nil)

        let jws = try Self.run(#"{"type":"promotional-offer","productId":"p","offerIdentifier":"o","iat":1700000000}"#)
        #expect(jws.object["issuedAt"] == .number("1700000000") && jws.object["iat"] == nil)
        #expect(jws.deprecated == ["iat"])
        #expect(
            BatchSigner.deprecationNote(for: "iat") == "note: the field 'iat' is deprecated; the name is now 'issuedAt'"
        )
        #expect(BatchSigner.deprecationNote(for: "issuedAt") == nil)
    }

    @Test("batch results have the fields of sign --format json and HTTP: keyId on a JWS, issuedAt on a token")
    func batchResultsHaveTheSameShapeAsOtherSurfaces() throws {
        for line in [
            #"{"type":"promotional-offer","productId":"p","offerIdentifier":"o"}"#,
            #"{"type":"introductory-offer-eligibility","productId":"p","allowIntroductoryOffer":true,"transactionId":"1"}"#,
        ] {
            let jws = try Self.run(line).object
            #expect(jws["keyId"] != nil && jws["nonce"] != nil && jws["issuedAt"] != nil, "\(jws)")
        }
        for line in [#"{"type":"server-api-token"}"#, #"{"type":"connect-api-token"}"#] {
            let token = try Self.run(line).object
            #expect(token["issuedAt"] != nil && token["expiresAt"] != nil, "\(token)")
        }
    }

    @Test func batchSignsConnectAPITokens() throws {
        let team = try Self.run(#"{"type":"connect-api-token","lifetime":60,"scope":["GET /v1/apps"]}"#)
        guard case .string(let token)? = team.object["token"] else {
            Issue.record("no token: \(team.object)")
            return
        }
        let verified = try TestJWS.verifier.verify(token, as: .connectAPIToken)
        #expect(verified.claims.iss == Demo.issuerId)
        #expect(verified.claims.exp == verified.claims.iat + 60)
        let individual = try Self.run(#"{"type":"connect-api-token","individual":true}"#)
        guard case .string(let individualToken)? = individual.object["token"] else {
            Issue.record("no token: \(individual.object)")
            return
        }
        #expect(try TestJWS.verifier.verify(individualToken, as: .connectAPIToken).claims.iss == nil)
    }

    @Test func legacySignatureReadsTheSignOutputObject() throws {
        let signer = try TestJWS.fixedSigner()
        let signed = try signer.sign(
            LegacyPromotionalOfferRequest(productId: "p", offerIdentifier: "o", appAccountToken: "abc"),
            nonce: TestJWS.fixedNonce, timestamp: 1_700_000_000_123)
        let text = """
            {"appAccountToken":"abc","keyId":"\(signed.keyId)","nonce":"\(signed.nonceString)",\
            "offerIdentifier":"o","productId":"p","signature":"\(signed.signature)","timestamp":1700000000123}
            """
        let input = try LegacyPromotionalOfferSignature.read(json: Array(text.utf8))
        #expect(input.signature == signed)
        #expect(input.bundleId == nil && input.deprecatedFields.isEmpty)
        try TestJWS.verifier.verify(input.signature, bundleId: Demo.bundleId)

        // Retention Messaging's object (encodedSignature) and the old offerId read the same.
        let retention = String(decoding: try JSONEncoder().encode(signed), as: UTF8.self)
        #expect(try LegacyPromotionalOfferSignature.read(json: Array(retention.utf8)).signature == signed)
        let old = text.replacingOccurrences(of: "offerIdentifier", with: "offerId")
        #expect(try LegacyPromotionalOfferSignature.read(json: Array(old.utf8)).deprecatedFields == ["offerId"])

        for (bad, field) in [
            (text.replacingOccurrences(of: "\"keyId\"", with: "\"kid\""), "kid"),
            (text.replacingOccurrences(of: "1700000000123", with: "\"1700000000123\""), "timestamp"),
            (text.replacingOccurrences(of: "\"nonce\":\"", with: "\"nonce\":\"x"), "nonce"),
            ("[]", "(the JSON object)"),
            (String(text.dropLast()), "(the JSON object)"),
        ] {
            #expect(throws: RequestValidationError.self) {
                try LegacyPromotionalOfferSignature.read(json: Array(bad.utf8))
            }
            do {
                _ = try LegacyPromotionalOfferSignature.read(json: Array(bad.utf8))
            } catch {
                #expect(error.field == field, "\(bad)")
            }
        }
    }
}
