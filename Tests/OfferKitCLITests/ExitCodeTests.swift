import Foundation
import OfferSigning
import Testing

@testable import CLITestSupport

/// Every documented exit code, with an empty stdout and an `offerkit: ` message on stderr.
@Suite("offerkit exit codes", .processRuns)
struct ExitCodeTests {
    static let sign = ["sign", "promotional-offer", "--product-id", Fixed.productId, "--offer-id", Fixed.offerId]
    static let identity = ["--issuer-id", DemoKey.issuerId, "--bundle-id", DemoKey.bundleId]

    @Test func rootHelpListsTheExitCodes() async throws {
        let result = try await CLI.run(["--help"])
        #expect(result.status == 0, "\(result)")
        let text = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let range = try #require(text.range(of: "exit code", options: .caseInsensitive), "\(result)")
        let after = text[range.upperBound...]
        for code in 0...5 {
            #expect(after.range(of: "\\b\(code)\\b", options: .regularExpression) != nil, "exit code \(code) listed")
        }
        for word in ["verif", "usage", "key", "input", "I/O"] {
            #expect(after.localizedCaseInsensitiveContains(word), "\(word)")
        }
    }

    /// `COLUMNS` is input too: a width ArgumentParser cannot wrap help to (it traps under about 30)
    /// or no number at all still gives the help (exit 0) and usage errors (exit 2), at least 40 wide.
    @Test("help and usage errors under a COLUMNS of no usable width", arguments: ["0", "-5", "20", "abc", "1e9"])
    func helpUnderAnyColumns(columns: String) async throws {
        for arguments in [["--help"], ["codes", "lookup", "apps", "--help"], ["sign", "promotional-offer", "--help"]] {
            let help = try await CLI.run(arguments, environment: ["COLUMNS": columns])
            #expect(help.status == 0 && help.stdout.contains("USAGE:"), "\(help)")
        }
        let usage = try await CLI.run(["codes", "apply", "--bogus"], environment: ["COLUMNS": columns])
        #expect(usage.status == 2 && usage.stderr.contains("Usage: offerkit codes apply"), "\(usage)")
    }

    @Test func zeroOnSuccess() async throws {
        let result = try await CLI.run(Self.sign + DemoKey.flags)
        #expect(result.status == 0, "\(result)")
    }

    @Test func oneWhenVerificationFails() async throws {
        let jws = try DemoKey.signer().sign(
            PromotionalOfferRequest(productId: Fixed.productId, offerIdentifier: Fixed.offerId)
        ).serialization
        var tampered = Array(jws)
        tampered[tampered.count - 5] = tampered[tampered.count - 5] == "A" ? "B" : "A"
        let result = try await CLI.run(["verify", "--jws", String(tampered)] + DemoKey.flags)
        Expect.failure(result, status: 1)
    }

    // MARK: 2 usage

    @Test(arguments: [
        ["sign", "promotional-offer", "--product-id", "p", "--offer-id", "o", "--bogus"],  // unknown flag
        ["sign", "promotional-offer", "--offer-id", "o"],  // missing required option
        ["sign", "promotional-offer", "--product-id", "p"],
        ["sign", "promotional-offer", "--product-id", "p", "--offer-id", "o", "--iat", "yesterday"],  // bad value
        ["sign", "promotional-offer", "--product-id", "p", "--offer-id", "o", "--format", "yaml"],
        ["sign", "promotional-offer-v1", "--product-id", "p", "--offer-id", "o", "--timestamp", "12.5"],
        ["sign", "intro-eligibility", "--product-id", "p", "--allow-intro", "maybe", "--transaction-id", "1"],
        ["sign", "intro-eligibility", "--product-id", "p", "--allow-intro", "true"],
        ["sign", "no-such-request"],  // unknown subcommand
        ["token", "server-api", "--lifetime", "five"],
        ["verify"],  // neither --jws nor --jws-file
        ["verify", "--jws", "a.b.c", "--kind", "no-such-kind"],
        ["key", "generate"],  // --out missing
        ["batch", "--nonsense"],
    ])
    func twoForUsageErrors(arguments: [String]) async throws {
        let result = try await CLI.run(arguments + DemoKey.flags)
        Expect.failure(result, status: 2)
    }

    // MARK: 3 key or credential problem

    @Test(arguments: ["rsa.pkcs8.pem", "p384.pkcs8.pem", "p256.pub.pem", "empty.p8", "p256.encrypted.pem", "cert.pem"])
    func threeForAKeyThatIsNotAP256PrivateKey(fixture: String) async throws {
        let path = DemoKey.fixtureKeys.appendingPathComponent(fixture).path
        let result = try await CLI.run(Self.sign + ["--key-file", path, "--key-id", DemoKey.keyId] + Self.identity)
        Expect.failure(result, status: 3)
    }

    @Test func threeForAMissingKeyFile() async throws {
        let result = try await CLI.run(
            Self.sign + ["--key-file", "/nonexistent/SubscriptionKey_ABCDEFGHIJ.p8"] + Self.identity)
        Expect.failure(result, status: 3, mentioning: ["/nonexistent/SubscriptionKey_ABCDEFGHIJ.p8"])
    }

    @Test func threeForBadIdentifiers() async throws {
        func flags(keyId: String = DemoKey.keyId, issuer: String = DemoKey.issuerId, bundle: String = DemoKey.bundleId)
            -> [String]
        {
            ["--key-file", DemoKey.privateCopy, "--key-id", keyId, "--issuer-id", issuer, "--bundle-id", bundle]
        }
        await Expect.failure(
            try await CLI.run(Self.sign + flags(keyId: "demokey123")), status: 3, mentioning: ["key id"])
        await Expect.failure(
            try await CLI.run(Self.sign + flags(keyId: "DEMOKEY12")), status: 3, mentioning: ["key id"])
        await Expect.failure(
            try await CLI.run(Self.sign + flags(issuer: "not-a-uuid")), status: 3, mentioning: ["issuer"])
        await Expect.failure(
            try await CLI.run(Self.sign + flags(bundle: "com.example app")), status: 3, mentioning: ["bundle"])
        await Expect.failure(
            try await CLI.run(Self.sign + flags(bundle: "com..example")), status: 3, mentioning: ["bundle"])
        await Expect.failure(
            try await CLI.run(["token", "server-api"] + flags(issuer: "98802e6e")), status: 3, mentioning: ["issuer"])
    }

    @Test func threeForKeysInTheEnvironmentThatAreNotKeys() async throws {
        let unset = try await CLI.run(
            Self.sign + ["--key-env", "OFFERKIT_TEST_UNSET_VARIABLE", "--key-id", DemoKey.keyId] + Self.identity)
        Expect.failure(unset, status: 3, mentioning: ["OFFERKIT_TEST_UNSET_VARIABLE"])
        let garbage = try await CLI.run(
            Self.sign + ["--key-id", DemoKey.keyId] + Self.identity, environment: ["OFFERKIT_KEY": "not a key at all"])
        Expect.failure(garbage, status: 3)
        let emptyStdin = try await CLI.run(
            Self.sign + ["--key-file", "-", "--key-id", DemoKey.keyId] + Self.identity, stdin: Data())
        Expect.failure(emptyStdin, status: 3)
    }

    @Test func threeForABrokenConfig() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let config = try folder.write(
            #"{"com.example.app":{"keyFile":"missing.p8","keyId":"ABCDEFGHIJ","#, to: "c.json")
        let result = try await CLI.run(Self.sign + ["--config", config, "--bundle-id", "com.example.app"])
        Expect.failure(result, status: 3)
    }

    // MARK: 4 input validation

    @Test(arguments: [
        ["sign", "promotional-offer", "--product-id", "", "--offer-id", "o"],
        ["sign", "promotional-offer", "--product-id", "p", "--offer-id", ""],
        ["sign", "promotional-offer-v1", "--product-id", "", "--offer-id", "o"],
        ["sign", "intro-eligibility", "--product-id", "", "--allow-intro", "true", "--transaction-id", "1"],
        ["sign", "intro-eligibility", "--product-id", "p", "--allow-intro", "true", "--transaction-id", ""],
        ["token", "server-api", "--lifetime", "3601"],
        ["token", "connect-api", "--lifetime", "1201"],
    ])
    func fourForInvalidInput(arguments: [String]) async throws {
        let result = try await CLI.run(arguments + DemoKey.flags)
        Expect.failure(result, status: 4)
    }

    @Test func fourNamesTheField() async throws {
        let empty = try await CLI.run(
            ["sign", "promotional-offer", "--product-id", "", "--offer-id", "o"] + DemoKey.flags)
        Expect.failure(empty, status: 4, mentioning: ["product"])
        let lifetime = try await CLI.run(["token", "server-api", "--lifetime", "3601"] + DemoKey.flags)
        Expect.failure(lifetime, status: 4, mentioning: ["lifetime", "3600"])
    }

    // MARK: 5 I/O

    @Test func fiveForFilesThatCannotBeReadOrWritten() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let request = try await CLI.run(
            ["sign", "advanced-commerce", "--request", folder.file("no-such-request.json")] + DemoKey.flags)
        Expect.failure(request, status: 5, mentioning: ["no-such-request.json"])
        let jwsFile = try await CLI.run(["verify", "--jws-file", folder.file("no-such.jws")] + DemoKey.flags)
        Expect.failure(jwsFile, status: 5, mentioning: ["no-such.jws"])
        let directoryAsRequest = try await CLI.run(
            ["sign", "advanced-commerce", "--request", folder.path] + DemoKey.flags)
        Expect.failure(directoryAsRequest, status: 5)
        let plain = try folder.write("x", to: "plain")
        let out = try await CLI.run(["key", "generate", "--out", "\(plain)/sub", "--key-id", "IOKEY00001"])
        Expect.failure(out, status: 5)
    }
}
