import Foundation
import OfferSigning
import Testing

@testable import CLITestSupport

/// `offerkit key inspect` and `offerkit key generate`.
@Suite("offerkit key")
struct KeyCommandTests {
    static func trimmed(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    @Test func inspectTextShowsCurvePublicKeyAndThumbprint() async throws {
        let result = try await CLI.run(["key", "inspect"] + DemoKey.keyFlags)
        Expect.success(result)
        #expect(result.stdout.contains("P-256"))
        #expect(result.stdout.contains(DemoKey.key.jwkThumbprint), "RFC 7638 thumbprint\n\(result)")
        #expect(result.stdout.contains(Self.trimmed(DemoKey.key.publicKeyPEM)), "public key PEM\n\(result)")
        #expect(result.stdout.contains(DemoKey.keyId))
        #expect(!result.stdout.contains("PRIVATE KEY"))
    }

    @Test func inspectJSON() async throws {
        let result = try await CLI.run(["key", "inspect", "--format", "json"] + DemoKey.keyFlags)
        Expect.success(result)
        let json = try #require(result.json, "not one JSON object: \(result)")
        #expect(json["keyId"]?.string == DemoKey.keyId)
        #expect(json["curve"]?.string == "P-256")
        #expect(json["thumbprint"]?.string == DemoKey.key.jwkThumbprint)
        #expect(Self.trimmed(json["publicKeyPem"]?.string ?? "") == Self.trimmed(DemoKey.key.publicKeyPEM))
        let expectedJWK = try #require(JSON.parse(DemoKey.key.publicJWK))
        let jwk: JSON? =
            if let text = json["jwk"]?.string { JSON.parse(text) } else { json["jwk"] }
        #expect(jwk?["kty"]?.string == "EC")
        #expect(jwk?["crv"]?.string == "P-256")
        #expect(jwk?["x"] == expectedJWK["x"] && jwk?["y"] == expectedJWK["y"])
        #expect(jwk?["d"] == nil, "never the private scalar")
        // The published public key file is the same key.
        let published = try String(contentsOfFile: DemoKey.publicKeyPath, encoding: .utf8)
        #expect(Self.trimmed(published) == Self.trimmed(json["publicKeyPem"]?.string ?? ""))
    }

    @Test("key inspect --format json prints the JWK as an object, not a string holding JSON")
    func inspectJSONHasJWKObject() async throws {
        let result = try await CLI.run(["key", "inspect", "--format", "json"] + DemoKey.keyFlags)
        Expect.success(result)
        let jwk = try #require(result.json?["jwk"]?.object, "jwk is not an object\n\(result)")
        #expect(Set(jwk.keys) == ["crv", "kty", "x", "y"])
        #expect(JSON.object(jwk) == JSON.parse(DemoKey.key.publicJWK))
    }

    @Test func generateWritesAPrivateKeyWithMode0600AndItsPublicKey() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let out = folder.file("keys")  // created if missing
        let result = try await CLI.run(["key", "generate", "--out", out, "--key-id", "GENKEY0001"])
        Expect.success(result)
        let privatePath = "\(out)/SubscriptionKey_GENKEY0001.p8"
        let publicPath = "\(out)/SubscriptionKey_GENKEY0001.pub.pem"
        let pem = try String(contentsOfFile: privatePath, encoding: .utf8)
        let key = try SigningKey(pem: pem, keyId: "GENKEY0001")
        OutputLog.shared.registerSecret(
            pem: pem, name: "the key `key generate` wrote to \(privatePath)",
            publicMaterial: [OutputLog.base64Body(ofPEM: key.publicKeyPEM), key.publicJWK])
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(
            FileMode.of(privatePath) == 0o600, "private key mode \(String(FileMode.of(privatePath) ?? 0, radix: 8))")
        let publicPEM = try String(contentsOfFile: publicPath, encoding: .utf8)
        #expect(Self.trimmed(publicPEM) == Self.trimmed(key.publicKeyPEM))
        #expect(result.stdout.contains("GENKEY0001"))
        #expect(
            result.stdout.contains(privatePath) && result.stdout.contains(publicPath), "prints the paths\n\(result)")

        // The new key signs, and the key ID is inferred from its file name.
        let signed = try await CLI.run(
            [
                "token", "server-api", "--key-file", privatePath, "--issuer-id", DemoKey.issuerId, "--bundle-id",
                DemoKey.bundleId,
            ])
        Expect.success(signed)
        #expect(DecodedJWS(signed.output)?.header["kid"]?.string == "GENKEY0001")
        let verified = try await CLI.run(["verify", "--jws", signed.output, "--public-key", publicPath])
        #expect(verified.status == 0, "\(verified)")
        let inspected = try await CLI.run(["key", "inspect", "--key-file", privatePath, "--format", "json"])
        Expect.success(inspected)
        #expect(inspected.json?["thumbprint"]?.string == key.jwkThumbprint)

        // A second run refuses to overwrite and leaves the files alone.
        let again = try await CLI.run(["key", "generate", "--out", out, "--key-id", "GENKEY0001"])
        Expect.failure(again, status: 5, mentioning: ["--force"])
        #expect(try String(contentsOfFile: privatePath, encoding: .utf8) == pem)

        // --force replaces them with a new key, still 0600.
        let forced = try await CLI.run(["key", "generate", "--out", out, "--key-id", "GENKEY0001", "--force"])
        Expect.success(forced)
        let replaced = try String(contentsOfFile: privatePath, encoding: .utf8)
        let replacedKey = try SigningKey(pem: replaced, keyId: "GENKEY0001")
        OutputLog.shared.registerSecret(
            pem: replaced, name: "the key `key generate --force` wrote to \(privatePath)",
            publicMaterial: [OutputLog.base64Body(ofPEM: replacedKey.publicKeyPEM), replacedKey.publicJWK])
        #expect(replaced != pem)
        #expect(FileMode.of(privatePath) == 0o600)
        #expect(
            Self.trimmed(try String(contentsOfFile: publicPath, encoding: .utf8))
                == Self.trimmed(replacedKey.publicKeyPEM))
    }

    @Test func generateWithoutKeyIdPicksAValidOne() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let result = try await CLI.run(["key", "generate", "--out", folder.path])
        Expect.success(result)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let privateName = try #require(names.first { $0.hasSuffix(".p8") }, "files: \(names)")
        #expect(names.count == 2, "\(names)")
        let keyId = String(privateName.dropFirst("SubscriptionKey_".count).dropLast(".p8".count))
        #expect(privateName.hasPrefix("SubscriptionKey_"))
        #expect(keyId.count == 10 && keyId.allSatisfy { ($0.isUppercase || $0.isNumber) && $0.isASCII }, "\(keyId)")
        #expect(names.contains("SubscriptionKey_\(keyId).pub.pem"))
        #expect(result.stdout.contains(keyId))
        let pem = try String(contentsOfFile: folder.file(privateName), encoding: .utf8)
        let key = try SigningKey(pem: pem, keyId: keyId)
        OutputLog.shared.registerSecret(
            pem: pem, name: "the key `key generate` wrote to \(privateName)",
            publicMaterial: [OutputLog.base64Body(ofPEM: key.publicKeyPEM), key.publicJWK])
        #expect(FileMode.of(folder.file(privateName)) == 0o600)
    }

    @Test func generateRejectsABadKeyIdAndAnUnwritableFolder() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let badId = try await CLI.run(["key", "generate", "--out", folder.path, "--key-id", "lower"])
        Expect.failure(badId, status: 3, mentioning: ["key id"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)

        let file = try folder.write("not a folder", to: "plain-file")
        let unwritable = try await CLI.run(["key", "generate", "--out", "\(file)/keys", "--key-id", "GENKEY0002"])
        Expect.failure(unwritable, status: 5)
    }
}
