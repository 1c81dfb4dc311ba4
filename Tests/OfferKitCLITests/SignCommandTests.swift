import Foundation
import OfferSigning
import Testing

@testable import CLITestSupport

/// `offerkit sign …` in both formats, rebuilt with the library and verified independently.
@Suite("offerkit sign")
struct SignCommandTests {
    static let expectedHeader = #"{"alg":"ES256","kid":"DEMOKEY123","typ":"JWT"}"#

    /// The header and payload segments the library makes for the same inputs.
    static func librarySigningInput(_ jws: CompactJWS) -> String {
        jws.serialization.split(separator: ".").prefix(2).joined(separator: ".")
    }

    static func signingInput(_ compact: String) -> String {
        compact.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").prefix(2).joined(separator: ".")
    }

    // MARK: promotional-offer

    @Test func promotionalOfferTextIsTheJWSAndMatchesTheLibraryByteForByte() async throws {
        let result = try await CLI.run(
            [
                "sign", "promotional-offer", "--product-id", Fixed.productId, "--offer-id", Fixed.offerId,
                "--transaction-id", Fixed.transactionId, "--nonce", Fixed.nonceUpper, "--iat", String(Fixed.iat),
            ]
                + DemoKey.flags)
        Expect.success(result)
        #expect(result.stdout.hasSuffix("\n") && !result.stdout.dropLast().contains("\n"), "one line: \(result)")
        let jws = try #require(DecodedJWS(result.output), "not a compact JWS: \(result)")
        #expect(jws.headerText == Self.expectedHeader)
        let expected = try DemoKey.signer().sign(
            PromotionalOfferRequest(
                productId: Fixed.productId, offerIdentifier: Fixed.offerId, transactionId: Fixed.transactionId),
            nonce: Fixed.nonceUUID, issuedAt: Date(timeIntervalSince1970: TimeInterval(Fixed.iat)))
        #expect(Self.signingInput(result.output) == Self.librarySigningInput(expected))
        #expect(
            jws.payloadText
                == #"{"iss":"\#(DemoKey.issuerId)","iat":1700000000,"aud":"promotional-offer","bid":"\#(DemoKey.bundleId)","nonce":"\#(Fixed.nonce)","productId":"com.example.monthly","offerIdentifier":"WINBACK50","transactionId":"2000000123456789"}"#
        )
        #expect(throws: Never.self) { try JWSVerifier(key: DemoKey.key).verify(result.output, as: .promotionalOffer) }
        Expect.noDemoWarning(result)
    }

    @Test func promotionalOfferJSONCarriesEveryField() async throws {
        let result = try await CLI.run(
            [
                "sign", "promotional-offer", "--product-id", Fixed.productId, "--offer-id", Fixed.offerId,
                "--transaction-id", Fixed.transactionId, "--nonce", Fixed.nonceUpper, "--iat", String(Fixed.iat),
                "--format", "json",
            ] + DemoKey.flags)
        Expect.success(result)
        let json = try #require(result.json, "not one JSON object: \(result)")
        #expect(json["keyId"]?.string == DemoKey.keyId)
        #expect(json["nonce"]?.string == Fixed.nonce)
        #expect(json["issuedAt"]?.int == Fixed.iat)
        #expect(json["productId"]?.string == Fixed.productId)
        #expect(json["offerIdentifier"]?.string == Fixed.offerId)
        #expect(json["transactionId"]?.string == Fixed.transactionId)
        let compact = try #require(json["jws"]?.string)
        let jws = try #require(DecodedJWS(compact))
        #expect(jws.claims["nonce"]?.string == Fixed.nonce)
        #expect(jws.claims["iat"]?.int == Fixed.iat)
        #expect(throws: Never.self) { try JWSVerifier(key: DemoKey.key).verify(compact, as: .promotionalOffer) }
    }

    @Test func promotionalOfferWithoutTransactionIdOmitsIt() async throws {
        let result = try await CLI.run(
            [
                "sign", "promotional-offer", "--product-id", Fixed.productId, "--offer-id", Fixed.offerId, "--format",
                "json",
            ] + DemoKey.flags)
        Expect.success(result)
        let json = try #require(result.json, "\(result)")
        #expect(json["transactionId"] == nil)
        let jws = try #require(DecodedJWS(json["jws"]?.string ?? ""))
        #expect(jws.claims["transactionId"] == nil)
        #expect(jws.claims["exp"] == nil)
        // A fresh nonce (UUID v4, lower case) and the current time.
        let nonce = try #require(jws.claims["nonce"]?.string)
        #expect(nonce == nonce.lowercased() && UUID(uuidString: nonce) != nil)
        #expect(json["nonce"]?.string == nonce)
        let iat = try #require(jws.claims["iat"]?.int)
        #expect(abs(iat - Int64(Date().timeIntervalSince1970)) < 3600)
        #expect(json["issuedAt"]?.int == iat)
    }

    // MARK: promotional-offer-v1

    @Test func legacyTextIsTheBase64DERSignatureOverTheSpecMessage() async throws {
        let result = try await CLI.run(
            [
                "sign", "promotional-offer-v1", "--product-id", Fixed.productId, "--offer-id", Fixed.offerId,
                "--app-account-token", Fixed.appAccountTokenUpper, "--nonce", Fixed.nonceUpper, "--timestamp",
                String(Fixed.timestamp),
            ] + DemoKey.flags)
        Expect.success(result)
        let signature = result.output
        let der = try #require(Data(base64Encoded: signature), "not standard base64: \(result)")
        #expect(der.first == 0x30, "a DER SEQUENCE")
        let legacy = LegacyPromotionalOfferSignature(
            keyId: DemoKey.keyId, nonce: Fixed.nonceUUID, timestamp: Fixed.timestamp, signature: signature,
            productId: Fixed.productId, offerIdentifier: Fixed.offerId,
            appAccountToken: Fixed.appAccountTokenUpper.lowercased())
        #expect(throws: Never.self) { try JWSVerifier(key: DemoKey.key).verify(legacy, bundleId: DemoKey.bundleId) }
    }

    @Test func legacyJSONCarriesEveryField() async throws {
        let result = try await CLI.run(
            [
                "sign", "promotional-offer-v1", "--product-id", Fixed.productId, "--offer-id", Fixed.offerId,
                "--app-account-token", Fixed.appAccountTokenUpper, "--nonce", Fixed.nonceUpper, "--timestamp",
                String(Fixed.timestamp), "--format", "json",
            ] + DemoKey.flags)
        Expect.success(result)
        let json = try #require(result.json, "not one JSON object: \(result)")
        #expect(json["keyId"]?.string == DemoKey.keyId)
        #expect(json["nonce"]?.string == Fixed.nonce)
        #expect(json["timestamp"]?.int == Fixed.timestamp)
        #expect(json["productId"]?.string == Fixed.productId)
        #expect(json["offerIdentifier"]?.string == Fixed.offerId)
        #expect(json["appAccountToken"]?.string == Fixed.appAccountTokenUpper.lowercased())
        let signature = try #require(json["signature"]?.string)
        let legacy = LegacyPromotionalOfferSignature(
            keyId: DemoKey.keyId, nonce: Fixed.nonceUUID, timestamp: Fixed.timestamp, signature: signature,
            productId: Fixed.productId, offerIdentifier: Fixed.offerId,
            appAccountToken: Fixed.appAccountTokenUpper.lowercased())
        #expect(throws: Never.self) { try JWSVerifier(key: DemoKey.key).verify(legacy, bundleId: DemoKey.bundleId) }
    }

    @Test func legacyDefaultsAreAFreshNonceAndTheCurrentTimeInMilliseconds() async throws {
        let result = try await CLI.run(
            [
                "sign", "promotional-offer-v1", "--product-id", Fixed.productId, "--offer-id", Fixed.offerId,
                "--format", "json",
            ] + DemoKey.flags)
        Expect.success(result)
        let json = try #require(result.json, "\(result)")
        let nonce = try #require(json["nonce"]?.string)
        #expect(nonce == nonce.lowercased() && UUID(uuidString: nonce) != nil)
        let timestamp = try #require(json["timestamp"]?.int)
        #expect(abs(timestamp - Int64(Date().timeIntervalSince1970 * 1000)) < 3_600_000, "milliseconds")
        if let token = json["appAccountToken"] { #expect(token.string == "") }
    }

    @Test(
        "legacy signatures verify with openssl dgst",
        .enabled(Independent.opensslReason) { await Independent.opensslAvailable || Independent.isCI })
    func legacyVerifiesWithOpenSSL() async throws {
        for token in [Fixed.appAccountTokenUpper, ""] {
            var arguments = [
                "sign", "promotional-offer-v1", "--product-id", Fixed.productId, "--offer-id", Fixed.offerId,
                "--nonce", Fixed.nonceUpper, "--timestamp", String(Fixed.timestamp),
            ]
            if !token.isEmpty { arguments += ["--app-account-token", token] }
            let result = try await CLI.run(arguments + DemoKey.flags)
            Expect.success(result)
            let message = Independent.legacyMessage(
                productId: Fixed.productId, offerId: Fixed.offerId, appAccountToken: token, nonce: Fixed.nonce,
                timestamp: Fixed.timestamp)
            let verified = try await Independent.opensslVerify(signatureBase64: result.output, message: message)
            #expect(verified.status == 0, "openssl: \(verified.stdout) \(verified.stderr)\n\(result)")
            #expect(verified.stdout.contains("Verified OK"))
        }
    }

    // MARK: intro-eligibility

    @Test(arguments: [true, false])
    func introEligibilityTextAndJSON(allow: Bool) async throws {
        let arguments = [
            "sign", "intro-eligibility", "--product-id", Fixed.productId, "--allow-intro", String(allow),
            "--transaction-id", Fixed.transactionId, "--nonce", Fixed.nonceUpper, "--iat", String(Fixed.iat),
        ]
        let text = try await CLI.run(arguments + DemoKey.flags)
        Expect.success(text)
        let expected = try DemoKey.signer().sign(
            IntroductoryOfferEligibilityRequest(
                productId: Fixed.productId, allowIntroductoryOffer: allow, transactionId: Fixed.transactionId),
            nonce: Fixed.nonceUUID, issuedAt: Date(timeIntervalSince1970: TimeInterval(Fixed.iat)))
        #expect(Self.signingInput(text.output) == Self.librarySigningInput(expected))
        let jws = try #require(DecodedJWS(text.output), "\(text)")
        #expect(jws.claims["allowIntroductoryOffer"]?.bool == allow)
        #expect(jws.claims["aud"]?.string == "introductory-offer-eligibility")
        #expect(throws: Never.self) {
            try JWSVerifier(key: DemoKey.key).verify(text.output, as: .introductoryOfferEligibility)
        }

        let json = try await CLI.run(arguments + ["--format", "json"] + DemoKey.flags)
        Expect.success(json)
        let object = try #require(json.json, "\(json)")
        #expect(object["allowIntroductoryOffer"]?.bool == allow)
        #expect(object["productId"]?.string == Fixed.productId)
        #expect(object["transactionId"]?.string == Fixed.transactionId)
        #expect(object["keyId"]?.string == DemoKey.keyId)
        #expect(object["nonce"]?.string == Fixed.nonce)
        #expect(object["issuedAt"]?.int == Fixed.iat)
        let compact = try #require(object["jws"]?.string)
        #expect(Self.signingInput(compact) == Self.librarySigningInput(expected))
    }

    // MARK: advanced-commerce

    @Test func advancedCommerceFromAFileAndFromStdin() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let requestPath = try folder.write(Fixed.oneTimeChargeJSON, to: "request.json")
        let arguments = ["--nonce", Fixed.nonceUpper, "--iat", String(Fixed.iat)] + DemoKey.flags
        let request = try AdvancedCommerce.InAppRequest.decode(json: Array(Fixed.oneTimeChargeJSON.utf8))
        let expected = try DemoKey.signer().sign(
            request, nonce: Fixed.nonceUUID, issuedAt: Date(timeIntervalSince1970: TimeInterval(Fixed.iat)))

        let fromFile = try await CLI.run(["sign", "advanced-commerce", "--request", requestPath] + arguments)
        Expect.success(fromFile)
        #expect(Self.signingInput(fromFile.output) == Self.librarySigningInput(expected))
        let jws = try #require(DecodedJWS(fromFile.output), "\(fromFile)")
        #expect(jws.claims["aud"]?.string == "advanced-commerce-api")
        let claim = try #require(jws.claims["request"]?.string)
        #expect(Data(base64Encoded: claim) == Data(Fixed.oneTimeChargeJSON.utf8))
        let verified = try JWSVerifier(key: DemoKey.key).verify(fromFile.output, as: .advancedCommerce)
        #expect(verified.advancedCommerceRequest == request)

        let fromStdin = try await CLI.run(
            ["sign", "advanced-commerce", "--request", "-"] + arguments, stdin: Data(Fixed.oneTimeChargeJSON.utf8))
        Expect.success(fromStdin)
        #expect(Self.signingInput(fromStdin.output) == Self.librarySigningInput(expected))

        let json = try await CLI.run(
            ["sign", "advanced-commerce", "--request", requestPath, "--format", "json"] + arguments)
        Expect.success(json)
        let object = try #require(json.json, "\(json)")
        let compact = try #require(object["jws"]?.string)
        #expect(Self.signingInput(compact) == Self.librarySigningInput(expected))
        #expect(object["nonce"]?.string == Fixed.nonce)
        #expect(object["issuedAt"]?.int == Fixed.iat)
    }

    @Test func advancedCommerceBadRequestNamesTheJSONPath() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let path = try folder.write(Fixed.tooLongSKUJSON, to: "bad.json")
        let result = try await CLI.run(["sign", "advanced-commerce", "--request", path] + DemoKey.flags)
        Expect.failure(result, status: 4, mentioning: ["items[0].SKU"])

        let lowerCase = Fixed.oneTimeChargeJSON.replacingOccurrences(of: #""SKU""#, with: #""sku""#)
        let hinted = try await CLI.run(
            ["sign", "advanced-commerce", "--request", "-"] + DemoKey.flags, stdin: Data(lowerCase.utf8))
        Expect.failure(hinted, status: 4, mentioning: ["sku"])

        let notJSON = try await CLI.run(
            ["sign", "advanced-commerce", "--request", "-"] + DemoKey.flags, stdin: Data("{not json".utf8))
        Expect.failure(notJSON, status: 4)
    }

    // MARK: independent verification

    @Test(
        "every JWS the CLI signs verifies with PyJWT and cryptography",
        .enabled(Independent.pythonReason) { await Independent.pythonAvailable || Independent.isCI })
    func jwsVerifyWithPython() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let requestPath = try folder.write(Fixed.oneTimeChargeJSON, to: "request.json")
        let runs: [(arguments: [String], audience: String)] = [
            (
                [
                    "sign", "promotional-offer", "--product-id", Fixed.productId, "--offer-id", Fixed.offerId,
                    "--transaction-id", Fixed.transactionId,
                ], "promotional-offer"
            ),
            (
                [
                    "sign", "promotional-offer", "--product-id", "é.monthly \"quoted\"", "--offer-id", "ÜBER-50",
                    "--nonce", Fixed.nonceUpper, "--iat", String(Fixed.iat),
                ], "promotional-offer"
            ),
            (
                [
                    "sign", "intro-eligibility", "--product-id", Fixed.productId, "--allow-intro", "false",
                    "--transaction-id", Fixed.transactionId,
                ], "introductory-offer-eligibility"
            ),
            (["sign", "advanced-commerce", "--request", requestPath], "advanced-commerce-api"),
            (["token", "server-api", "--lifetime", "600"], "appstoreconnect-v1"),
            (["token", "connect-api", "--scope", "GET /v1/apps"], "appstoreconnect-v1"),
            (["token", "connect-api", "--individual"], "appstoreconnect-v1"),
        ]
        var tokens: [(token: String, audience: String)] = []
        for run in runs {
            // An individual key has no issuer: --issuer-id with --individual is refused.
            let credentials = run.arguments.contains("--individual") ? DemoKey.keyFlags : DemoKey.flags
            let result = try await CLI.run(run.arguments + credentials)
            Expect.success(result)
            tokens.append((result.output, run.audience))
        }
        let verified = try await Independent.verifyWithPython(tokens)
        try #require(verified.count == runs.count)
        for item in verified {
            #expect(
                item.header == .object(["alg": .string("ES256"), "kid": .string("DEMOKEY123"), "typ": .string("JWT")]))
        }
        #expect(verified[0].claims["transactionId"]?.string == Fixed.transactionId)
        #expect(verified[1].claims["productId"]?.string == "é.monthly \"quoted\"")
        #expect(verified[1].claims["offerIdentifier"]?.string == "ÜBER-50")
        #expect(verified[2].claims["allowIntroductoryOffer"]?.bool == false)
        let request = try #require(verified[3].claims["request"]?.string)
        #expect(Data(base64Encoded: request) == Data(Fixed.oneTimeChargeJSON.utf8))
        #expect(verified[4].claims["bid"]?.string == DemoKey.bundleId)
        #expect(verified[5].claims["scope"] == .array([.string("GET /v1/apps")]))
        #expect(verified[6].claims["sub"]?.string == "user")
    }
}
