import Foundation
import OfferSigning
import Testing

@testable import CLITestSupport

/// `verify --legacy-signature-file` takes the object `sign legacy-promotional-offer --format json`
/// prints, and with `--public-key` needs no `--key-id`: the object carries the key ID.
@Suite("offerkit verify: a legacy signature from its JSON object")
struct LegacySignatureJSONTests {
    /// An object of strings and integers as JSON text.
    static func text(_ object: [String: JSON]) -> String {
        let plain = object.mapValues { value -> Any in
            if let string = value.string { return string }
            if let integer = value.int { return integer }
            return NSNull()
        }
        let data = try? JSONSerialization.data(withJSONObject: plain, options: [.sortedKeys])
        return String(decoding: data ?? Data(), as: UTF8.self)
    }

    static func signJSON(_ folder: TempDir) async throws -> (path: String, text: String) {
        let signed = try await CLI.run(
            [
                "sign", "legacy-promotional-offer", "--product-id", Fixed.productId, "--offer-identifier",
                Fixed.offerId, "--app-account-token", Fixed.appAccountTokenUpper, "--format", "json",
            ] + DemoKey.flags)
        Expect.success(signed)
        return (try folder.write(signed.stdout, to: "signature.json"), signed.stdout)
    }

    @Test("the signed object carries bundleId: --public-key alone verifies it, from a folder without the demo key")
    func publicKeyAloneFromAnyFolder() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let (path, text) = try await Self.signJSON(folder)
        #expect(JSON.parse(text)?.object?["bundleId"]?.string == DemoKey.bundleId, "\(text)")
        let verified = try await CLI.run(
            ["verify", "--legacy-signature-file", path, "--public-key", DemoKey.publicKeyPath], cwd: folder.url)
        #expect(verified.status == 0, "\(verified)")
        // The object's keyId names a given private key too.
        let withKeyFile = try await CLI.run(
            ["verify", "--legacy-signature-file", path, "--key-file", DemoKey.privateCopy], cwd: folder.url)
        #expect(withKeyFile.status == 0, "\(withKeyFile)")
        // Key ID and bundle ID both missing: one message names both.
        let missing = try await CLI.run(
            [
                "verify", "--legacy-signature", "AAAA", "--product-id", "p", "--offer-identifier", "o", "--nonce",
                Fixed.nonce, "--timestamp", "1700000000000", "--public-key", DemoKey.publicKeyPath,
            ], cwd: folder.url)
        Expect.failure(missing, status: 3, mentioning: ["missing:", "key ID (", "bundle ID ("])
    }

    @Test(
        "sign --format json → verify --legacy-signature-file, from a file and from stdin, with the key or --public-key")
    func roundTrip() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let (path, text) = try await Self.signJSON(folder)

        let withKey = try await CLI.run(
            ["verify", "--legacy-signature-file", path] + DemoKey.flags(without: "--issuer-id"))
        #expect(withKey.status == 0, "\(withKey)")
        #expect(withKey.output == "verified: legacy promotional offer signature", "\(withKey)")

        // --public-key and the bundle ID: no --key-id, no private key.
        let publicOnly = try await CLI.run(
            [
                "verify", "--legacy-signature-file", "-", "--public-key", DemoKey.publicKeyPath, "--bundle-id",
                DemoKey.bundleId, "--format", "json",
            ], stdin: Data(text.utf8))
        #expect(publicOnly.status == 0, "\(publicOnly)")
        #expect(publicOnly.json?["valid"]?.bool == true, "\(publicOnly)")
        #expect(publicOnly.json?["kind"]?.string == "legacy-promotional-offer", "\(publicOnly)")

        // The bundle ID may come from the object itself.
        var object = try #require(JSON.parse(text)?.object)
        object["bundleId"] = .string(DemoKey.bundleId)
        let withBundle = try folder.write(Self.text(object), to: "with-bundle.json")
        let fromObject = try await CLI.run(
            ["verify", "--legacy-signature-file", withBundle, "--public-key", DemoKey.publicKeyPath])
        #expect(fromObject.status == 0, "\(fromObject)")
        let conflicting = try await CLI.run(
            [
                "verify", "--legacy-signature-file", withBundle, "--public-key", DemoKey.publicKeyPath, "--bundle-id",
                "com.example.other",
            ])
        // The bundle ID given is compared with the object's: a named mismatch, not a guess.
        Expect.failure(
            conflicting, status: 1,
            mentioning: [#"bundleId is "com.example.offerkit.demo", expected "com.example.other" (--bundle-id)"#])
    }

    @Test("a changed value in the object does not verify (exit 1); a bad object exits 4 naming the member")
    func tamperedAndMalformedObjects() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let (_, text) = try await Self.signJSON(folder)
        let object = try #require(JSON.parse(text)?.object)
        let publicKey = ["--public-key", DemoKey.publicKeyPath, "--bundle-id", DemoKey.bundleId]

        for (member, value) in [
            ("productId", JSON.string("com.example.yearly")), ("offerIdentifier", .string("OTHER")),
            ("timestamp", .int((object["timestamp"]?.int ?? 0) + 1)), ("keyId", .string("OTHERKEY12")),
        ] {
            var changed = object
            changed[member] = value
            let result = try await CLI.run(
                ["verify", "--legacy-signature-file", "-"] + publicKey, stdin: Data(Self.text(changed).utf8))
            Expect.failure(result, status: 1)
        }

        var unknown = object
        unknown["offerIdentifer"] = .string("typo")
        let misspelt = try await CLI.run(
            ["verify", "--legacy-signature-file", "-"] + publicKey, stdin: Data(Self.text(unknown).utf8))
        Expect.failure(misspelt, status: 4, mentioning: ["offerIdentifer"])

        var missing = object
        missing["nonce"] = nil
        let noNonce = try await CLI.run(
            ["verify", "--legacy-signature-file", "-"] + publicKey, stdin: Data(Self.text(missing).utf8))
        Expect.failure(noNonce, status: 4, mentioning: ["nonce"])

        let notJSON = try await CLI.run(
            ["verify", "--legacy-signature-file", "-"] + publicKey, stdin: Data("MEUCIQ==".utf8))
        Expect.failure(notJSON, status: 4, mentioning: ["JSON object"])

        // The old member name offerId is accepted with a note.
        var old = object
        old["offerId"] = old["offerIdentifier"]
        old["offerIdentifier"] = nil
        let oldName = try await CLI.run(
            ["verify", "--legacy-signature-file", "-"] + publicKey, stdin: Data(Self.text(old).utf8))
        #expect(oldName.status == 0, "\(oldName)")
        #expect(oldName.stderr.contains("note: the field 'offerId' is deprecated"), "\(oldName)")

        let mixed = try await CLI.run(
            ["verify", "--legacy-signature-file", "-", "--product-id", "p"] + publicKey, stdin: Data(text.utf8))
        Expect.failure(mixed, status: 2, mentioning: ["--legacy-signature-file"])
    }

    @Test(
        "--legacy-signature with --public-key: the key ID comes from --key-id or the config; without either the message says how"
    )
    func flagsWithPublicKey() async throws {
        let signature = try DemoKey.signer().sign(
            LegacyPromotionalOfferRequest(productId: Fixed.productId, offerIdentifier: Fixed.offerId),
            nonce: Fixed.nonceUUID, timestamp: Fixed.timestamp)
        let arguments = [
            "verify", "--legacy-signature", signature.signature, "--product-id", Fixed.productId,
            "--offer-identifier", Fixed.offerId, "--nonce", Fixed.nonce, "--timestamp", String(Fixed.timestamp),
            "--public-key", DemoKey.publicKeyPath,
        ]
        let withKeyId = try await CLI.run(arguments + ["--key-id", DemoKey.keyId, "--bundle-id", DemoKey.bundleId])
        #expect(withKeyId.status == 0, "\(withKeyId)")
        // keys-example/config.json names the key ID and the one bundle ID.
        let withConfig = try await CLI.run(arguments + ["--config", DemoKey.configPath])
        #expect(withConfig.status == 0, "\(withConfig)")
        let none = try await CLI.run(arguments + ["--bundle-id", DemoKey.bundleId])
        Expect.failure(none, status: 3, mentioning: ["key ID", "--key-id", "--legacy-signature-file"])
    }
}
