import Foundation
import OfferSigning
import Testing

/// Cases found in review: credentials must not mix sources, empty secrets must not fall back to
/// the demo key, stdin cannot serve two inputs, and legacy verification needs no private key.
@Suite("offerkit review regressions")
struct ReviewRegressionTests {
    @Test("a key from the environment keeps its own key ID: the config's key ID never labels another key")
    func keyIDFollowsItsKey() throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let other = try folder.copyOfDemoKey(named: "SubscriptionKey_AAAAAAAAAA.p8", mode: 0o600)
        let result = try CLI.run(
            ["key", "inspect", "--format", "json", "--config", DemoKey.configPath],
            environment: ["OFFERKIT_KEY_FILE": other])
        Expect.success(result)
        #expect(result.json?["keyId"]?.string == "AAAAAAAAAA", "\(result)")
    }

    @Test("with every credential given, a config file that lacks the bundle ID is not consulted")
    func configOnlyFillsGaps() throws {
        let result = try CLI.run(
            CredentialTests.signArguments + DemoKey.flags.dropLast(2) + ["--bundle-id", "com.other.app"],
            environment: ["OFFERKIT_CONFIG": DemoKey.configPath])
        Expect.success(result)
    }

    @Test(
        "a set-but-empty OFFERKIT_* variable is a credential error, never the demo key",
        arguments: ["OFFERKIT_KEY", "OFFERKIT_KEY_FILE", "OFFERKIT_KEY_ID", "OFFERKIT_CONFIG"])
    func emptySecretFails(variable: String) throws {
        let result = try CLI.run(CredentialTests.signArguments, environment: [variable: ""])
        Expect.failure(result, status: 3, mentioning: [variable, "empty"])
        #expect(!result.stderr.lowercased().contains("demo key"))
    }

    @Test("--key-file - cannot share stdin with another input")
    func stdinServesOneInput() throws {
        let key = Data(DemoKey.privatePEM.utf8)
        let identity = ["--key-id", DemoKey.keyID, "--issuer-id", DemoKey.issuerID, "--bundle-id", DemoKey.bundleID]
        let cases: [[String]] = [
            ["batch", "--key-file", "-"] + identity,
            ["sign", "advanced-commerce", "--request", "-", "--key-file", "-"] + identity,
            ["verify", "--jws-file", "-", "--key-file", "-"] + identity,
        ]
        for arguments in cases {
            let result = try CLI.run(arguments, stdin: key)
            Expect.failure(result, status: 2, mentioning: ["stdin"])
        }
    }

    @Test("legacy verification with --public-key needs only the key ID and bundle ID")
    func legacyVerifyWithPublicKeyOnly() throws {
        let signature = try DemoKey.signer().sign(
            LegacyPromotionalOfferRequest(productId: Fixed.productId, offerIdentifier: Fixed.offerId),
            nonce: Fixed.nonceUUID, timestamp: Fixed.timestamp)
        let base = [
            "verify", "--legacy-signature", signature.signature, "--product-id", Fixed.productId, "--offer-id",
            Fixed.offerId, "--nonce", Fixed.nonce, "--timestamp", String(Fixed.timestamp), "--public-key",
            DemoKey.publicKeyPath, "--key-id", DemoKey.keyID,
        ]
        let good = try CLI.run(base + ["--bundle-id", DemoKey.bundleID])
        Expect.success(good)
        Expect.noDemoWarning(good)
        let wrongBundle = try CLI.run(base + ["--bundle-id", "com.example.other"])
        Expect.failure(wrongBundle, status: 1, mentioning: ["verification failed"])
    }

    @Test("a negative --iat is rejected, naming iat")
    func negativeIssuedAt() throws {
        let result = try CLI.run(CredentialTests.signArguments + DemoKey.flags + ["--iat=-100"])
        Expect.failure(result, status: 4, mentioning: ["iat"])
    }

    @Test("a long value given as key ID or nonce is not echoed at all")
    func longValuesAreNotEchoed() throws {
        let scalar = String(repeating: "ab01", count: 16)
        let asKeyID = try CLI.run(
            CredentialTests.signArguments + [
                "--key-file", DemoKey.privateCopy, "--key-id", scalar, "--issuer-id",
                DemoKey.issuerID, "--bundle-id", DemoKey.bundleID,
            ])
        Expect.failure(asKeyID, status: 3, mentioning: ["keyID"])
        #expect(!asKeyID.stderr.contains("ab01ab01"))
        let asNonce = try CLI.run(CredentialTests.signArguments + DemoKey.flags + ["--nonce", scalar])
        Expect.failure(asNonce, status: 4, mentioning: ["nonce"])
        #expect(!asNonce.stderr.contains("ab01ab01"))
    }

    @Test("a misspelled config field is named, with the fields that exist")
    func configTypoIsNamed() throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let config = try folder.write(
            #"{"com.example.offerkit.demo":{"keyFile":"k.p8","keyID":"DEMOKEY123"}}"#, to: "config.json")
        let result = try CLI.run(["key", "inspect", "--config", config])
        Expect.failure(result, status: 3, mentioning: ["com.example.offerkit.demo.keyID", "keyId"])
    }

    @Test("request errors speak JSON, not Swift: arrays and UUIDs")
    func requestErrorsInJSONTerms() throws {
        let base =
            #"{"operation":"CREATE_SUBSCRIPTION","requestInfo":{"requestReferenceId":"REF"},"currency":"USD","taxCode":"C","descriptors":{"description":"d","displayName":"n"},"items":ITEMS,"period":"P1M"}"#
        let badUUID = base.replacingOccurrences(of: "REF", with: "nope").replacingOccurrences(
            of: "ITEMS", with: #"[{"SKU":"s","description":"d","displayName":"n","price":1}]"#)
        let uuidResult = try CLI.run(
            ["sign", "advanced-commerce", "--request", "-"] + DemoKey.flags, stdin: Data(badUUID.utf8))
        Expect.failure(uuidResult, status: 4, mentioning: ["requestInfo.requestReferenceId", "expected a UUID"])
        let notArray = base.replacingOccurrences(of: "REF", with: "f55df048-4cd8-4261-b404-b6f813ff70e5")
            .replacingOccurrences(of: "ITEMS", with: "{}")
        let arrayResult = try CLI.run(
            ["sign", "advanced-commerce", "--request", "-"] + DemoKey.flags, stdin: Data(notArray.utf8))
        Expect.failure(arrayResult, status: 4, mentioning: ["items", "expected an array"])
        #expect(!arrayResult.stderr.contains("Array<"))
    }
}
