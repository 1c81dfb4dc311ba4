import Foundation
import Testing

@testable import CLITestSupport

/// `offerkit api-key create`.
@Suite("offerkit api-key")
struct APIKeyCommandTests {
    /// SHA-256 of `text` in lower-case hex, by the openssl CLI (not the library).
    static func opensslSHA256(_ text: String) async throws -> String {
        let result = try await Independent.run("openssl", ["dgst", "-sha256", "-r"], stdin: Data(text.utf8))
        #expect(result.status == 0, "openssl dgst failed: \(result.stderr)")
        return String(result.stdout.prefix { $0 != " " })
    }

    static func isSecret(_ text: String) -> Bool {
        guard text.hasPrefix("offerkit_") else { return false }
        let body = text.dropFirst("offerkit_".count)
        return body.count == 43 && body.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) }
            && Base64URL.decode(body)?.count == 32
    }

    @Test(.enabled(Independent.opensslReason) { await Independent.opensslAvailable || Independent.isCI })
    func textPrintsTheSecretThenItsEntryWhoseSHA256IsTheSecretsDigest() async throws {
        let result = try await CLI.run(["api-key", "create", "--name", "billing-backend"])
        Expect.success(result)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "the secret, then the entry\n\(result)")
        let secret = try #require(lines.first)
        #expect(Self.isSecret(secret), "offerkit_ + 43 base64url characters (32 bytes): \(secret)")
        let entry = try #require(JSON.parse(lines.last ?? ""), "the second line is not JSON\n\(result)")
        #expect(entry.keys == ["name", "sha256", "scopes", "bundleIds"])
        #expect(entry["name"]?.string == "billing-backend")
        #expect(entry["scopes"] == .array([.string("*")]))
        #expect(entry["bundleIds"] == .array([.string("*")]))
        let digest = try #require(entry["sha256"]?.string)
        #expect(digest.count == 64 && digest.allSatisfy { "0123456789abcdef".contains($0) }, "\(digest)")
        await #expect(digest == (try Self.opensslSHA256(secret)), "sha256 must be SHA-256 of the secret's UTF-8 bytes")
        #expect(!result.stderr.contains(secret), "the secret goes to stdout only, once")
        #expect(result.stderr.contains("apiKeys"), "says where the entry goes\n\(result)")
    }

    @Test(.enabled(Independent.opensslReason) { await Independent.opensslAvailable || Independent.isCI })
    func jsonCarriesTheChosenScopesAndBundleIds() async throws {
        let result = try await CLI.run([
            "api-key", "create", "--name", "promo", "--scope", "metrics", "--scope", "promotional-offer",
            "--scope", "metrics", "--bundle-id", "com.example.offerkit.other", "--bundle-id",
            "com.example.offerkit.demo", "--format", "json",
        ])
        Expect.success(result)
        let json = try #require(result.json, "not one JSON object\n\(result)")
        #expect(json.keys == ["secret", "entry"])
        let secret = try #require(json["secret"]?.string)
        #expect(Self.isSecret(secret))
        let entry = try #require(json["entry"])
        #expect(entry["name"]?.string == "promo")
        // Each scope once, in the documented order; bundle IDs sorted.
        #expect(entry["scopes"] == .array([.string("promotional-offer"), .string("metrics")]))
        #expect(
            entry["bundleIds"] == .array([.string("com.example.offerkit.demo"), .string("com.example.offerkit.other")]))
        await #expect(entry["sha256"]?.string == (try Self.opensslSHA256(secret)))
    }

    @Test func everyRunMakesANewSecret() async throws {
        let first = try await CLI.run(["api-key", "create", "--name", "a"])
        let second = try await CLI.run(["api-key", "create", "--name", "a"])
        Expect.success(first)
        Expect.success(second)
        let firstSecret = first.stdout.split(separator: "\n").first
        #expect(firstSecret != nil && firstSecret != second.stdout.split(separator: "\n").first)
    }

    @Test func aDeprecatedScopeSpellingIsAcceptedWithANote() async throws {
        let result = try await CLI.run(
            ["api-key", "create", "--name", "x", "--scope", "promotional-offer-v1", "--format", "json"])
        Expect.success(result)
        #expect(result.stderr.contains("legacy-promotional-offer"), "\(result)")
        #expect(result.stdout.contains("legacy-promotional-offer") && !result.stdout.contains("promotional-offer-v1"))
    }

    @Test func anUnknownScopeIsRefusedWithTheListOfScopes() async throws {
        let result = try await CLI.run(["api-key", "create", "--name", "x", "--scope", "sign-everything"])
        Expect.failure(result, status: 2, mentioning: ["sign-everything", "promotional-offer", "metrics", "campaigns"])
    }

    @Test func starMixedWithScopesIsRefused() async throws {
        let result = try await CLI.run(["api-key", "create", "--name", "x", "--scope", "*", "--scope", "metrics"])
        Expect.failure(result, status: 2, mentioning: ["--scope", "alone"])
    }

    @Test func aConnectAPITokenScopeForSomeBundleIDsIsRefused() async throws {
        let result = try await CLI.run([
            "api-key", "create", "--name", "x", "--scope", "connect-api-token", "--bundle-id", "com.example.app",
        ])
        Expect.failure(result, status: 2, mentioning: ["connect-api-token", "--bundle-id", "whole team"])
    }

    @Test func aBadBundleIdIsRefused() async throws {
        let result = try await CLI.run(["api-key", "create", "--name", "x", "--bundle-id", "com..example"])
        Expect.failure(result, status: 2, mentioning: ["--bundle-id", "com..example", "bundle ID"])
    }

    @Test func aNameTheConfigurationWouldRefuseIsRefused() async throws {
        for name in ["", String(repeating: "n", count: 65), "tab\there"] {
            let result = try await CLI.run(["api-key", "create", "--name", name])
            Expect.failure(result, status: 2, mentioning: ["--name", "1-64 characters"])
        }
    }
}
