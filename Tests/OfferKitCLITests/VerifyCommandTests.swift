import Foundation
import OfferSigning
import Testing

@testable import CLITestSupport

/// `offerkit verify`: JWS from a flag, a file or stdin; with the key in use or `--public-key`;
/// tampered and wrongly keyed input exits 1; the legacy form.
@Suite("offerkit verify")
struct VerifyCommandTests {
    static func signedOffer() throws -> String {
        try DemoKey.signer().sign(
            PromotionalOfferRequest(
                productId: Fixed.productId, offerIdentifier: Fixed.offerId, transactionId: Fixed.transactionId)
        ).serialization
    }

    /// The output with all whitespace removed, so pretty-printed JSON can be searched.
    static func squeezed(_ text: String) -> String { text.filter { !$0.isWhitespace } }

    @Test func textShowsKindHeaderAndClaims() async throws {
        let jws = try Self.signedOffer()
        let result = try await CLI.run(["verify", "--jws", jws] + DemoKey.flags)
        Expect.success(result)
        let text = Self.squeezed(result.stdout)
        #expect(text.contains("promotional-offer"))
        #expect(text.contains(#""alg":"ES256""#) && text.contains(#""kid":"DEMOKEY123""#), "header JSON\n\(result)")
        #expect(text.contains(#""productId":"com.example.monthly""#), "claims JSON\n\(result)")
        #expect(text.contains(#""offerIdentifier":"WINBACK50""#))
        #expect(text.contains(#""bid":"com.example.offerkit.demo""#))
    }

    @Test func jsonIsValidKindHeaderClaims() async throws {
        let jws = try Self.signedOffer()
        let result = try await CLI.run(["verify", "--jws", jws, "--format", "json"] + DemoKey.flags)
        Expect.success(result)
        let json = try #require(result.json, "not one JSON object: \(result)")
        #expect(json["valid"]?.bool == true)
        #expect(json["kind"]?.string == "promotional-offer")
        #expect(
            json["header"] == .object(["alg": .string("ES256"), "kid": .string("DEMOKEY123"), "typ": .string("JWT")]))
        #expect(json["claims"]?["productId"]?.string == Fixed.productId)
        #expect(json["claims"]?["transactionId"]?.string == Fixed.transactionId)
        #expect(json["claims"]?["iss"]?.string == DemoKey.issuerId)
    }

    @Test func kindsOfTokensAndRequestsAreNamed() async throws {
        let cases: [(arguments: [String], kind: JWSKind)] = [
            (
                ["sign", "intro-eligibility", "--product-id", "p", "--allow-intro", "true", "--transaction-id", "1"],
                .introductoryOfferEligibility
            ),
            (["token", "server-api"], .serverAPIToken),
            (["token", "connect-api"], .connectAPIToken),
        ]
        for item in cases {
            let signed = try await CLI.run(item.arguments + DemoKey.flags)
            Expect.success(signed)
            // An App Store Connect token names no app: --bundle-id cannot apply to it (exit 2).
            let flags = item.kind == .connectAPIToken ? DemoKey.flags(without: "--bundle-id") : DemoKey.flags
            let result = try await CLI.run(["verify", "--jws", signed.output, "--format", "json"] + flags)
            Expect.success(result)
            #expect(result.json?["kind"]?.string == item.kind.rawValue, "\(result)")
            let text = try await CLI.run(["verify", "--jws", signed.output] + flags)
            Expect.success(text)
            #expect(text.stdout.contains(item.kind.rawValue), "text names the kind\n\(text)")
        }
    }

    @Test func fromAFileFromStdinAndWithAPublicKeyFile() async throws {
        let jws = try Self.signedOffer()
        let folder = try TempDir.make()
        defer { folder.remove() }
        let path = try folder.write(jws + "\n", to: "offer.jws")

        let fromFile = try await CLI.run(["verify", "--jws-file", path] + DemoKey.flags)
        Expect.success(fromFile)
        let fromStdin = try await CLI.run(
            ["verify", "--jws-file", "-"] + DemoKey.flags, stdin: Data((jws + "\n").utf8))
        Expect.success(fromStdin)

        // --public-key alone: no private key needed.
        let withPublicKey = try await CLI.run(
            [
                "verify", "--jws", jws, "--public-key", DemoKey.publicKeyPath, "--kind", "promotional-offer",
                "--format",
                "json",
            ])
        Expect.success(withPublicKey)
        #expect(withPublicKey.json?["valid"]?.bool == true, "\(withPublicKey)")
    }

    @Test func tamperedPayloadExitsOne() async throws {
        let jws = try #require(DecodedJWS(try Self.signedOffer()))
        let tampered = jws.withPayload(jws.payloadText.replacingOccurrences(of: "WINBACK50", with: "WINBACK99"))
        let result = try await CLI.run(["verify", "--jws", tampered] + DemoKey.flags)
        Expect.failure(result, status: 1)

        let json = try await CLI.run(["verify", "--jws", tampered, "--format", "json"] + DemoKey.flags)
        #expect(json.status == 1, "\(json)")
        let object = try #require(json.json, "json mode prints {valid:false, reason}\n\(json)")
        #expect(object["valid"]?.bool == false)
        let reason = object["reason"]?.string ?? ""
        #expect(reason.isEmpty == false, "a reason is given")
    }

    @Test func wrongPublicKeyExitsOne() async throws {
        let jws = try Self.signedOffer()
        let other = DemoKey.fixtureKeys.appendingPathComponent("p256.pub.pem").path
        let result = try await CLI.run(["verify", "--jws", jws, "--public-key", other])
        Expect.failure(result, status: 1)
        let json = try await CLI.run(["verify", "--jws", jws, "--public-key", other, "--format", "json"])
        #expect(json.status == 1, "\(json)")
        #expect(json.json?["valid"]?.bool == false, "\(json)")
    }

    @Test func wrongKindAndGarbageExitOne() async throws {
        let jws = try Self.signedOffer()
        let wrongKind = try await CLI.run(["verify", "--jws", jws, "--kind", "server-api-token"] + DemoKey.flags)
        Expect.failure(wrongKind, status: 1)
        let garbage = try await CLI.run(["verify", "--jws", "not.a.jws"] + DemoKey.flags)
        Expect.failure(garbage, status: 1)
    }

    // MARK: legacy

    static func legacyArguments(signature: String, timestamp: Int64 = Fixed.timestamp) -> [String] {
        [
            "verify", "--legacy-signature", signature, "--product-id", Fixed.productId, "--offer-id", Fixed.offerId,
            "--nonce", Fixed.nonce, "--timestamp", String(timestamp), "--app-account-token",
            Fixed.appAccountTokenUpper,
        ]
    }

    @Test func legacySignatureVerifies() async throws {
        let signed = try await CLI.run(
            [
                "sign", "promotional-offer-v1", "--product-id", Fixed.productId, "--offer-id", Fixed.offerId,
                "--app-account-token", Fixed.appAccountTokenUpper, "--nonce", Fixed.nonceUpper, "--timestamp",
                String(Fixed.timestamp),
            ] + DemoKey.flags)
        Expect.success(signed)
        // A legacy signature signs no issuer ID: --issuer-id cannot apply to it (exit 2).
        let flags = DemoKey.flags(without: "--issuer-id")
        let ok = try await CLI.run(Self.legacyArguments(signature: signed.output) + flags)
        #expect(ok.status == 0, "\(ok)")
        let json = try await CLI.run(Self.legacyArguments(signature: signed.output) + ["--format", "json"] + flags)
        #expect(json.status == 0, "\(json)")
        #expect(json.json?["valid"]?.bool == true, "\(json)")

        let shifted = try await CLI.run(
            Self.legacyArguments(signature: signed.output, timestamp: Fixed.timestamp + 1) + flags)
        Expect.failure(shifted, status: 1)

        // Signed by the library with the same message: the CLI agrees.
        let library = try DemoKey.signer().sign(
            LegacyPromotionalOfferRequest(
                productId: Fixed.productId, offerIdentifier: Fixed.offerId, appAccountToken: Fixed.appAccountTokenUpper),
            nonce: Fixed.nonceUUID, timestamp: Fixed.timestamp)
        let fromLibrary = try await CLI.run(Self.legacyArguments(signature: library.signature) + flags)
        #expect(fromLibrary.status == 0, "\(fromLibrary)")

        // Another bundle ID in the credentials: not what was signed.
        var otherBundle = flags
        otherBundle[otherBundle.firstIndex(of: DemoKey.bundleId)!] = "com.example.other"
        let wrongBundle = try await CLI.run(Self.legacyArguments(signature: signed.output) + otherBundle)
        Expect.failure(wrongBundle, status: 1)
    }
}
