import AppleTestChain
import Foundation
import InteropSupport
import Testing

@testable import CLITestSupport

/// `offerkit retention test-chain` and `try-endpoint` against a real `offerkit serve` that trusts the
/// chain's root: every decision of the example rules, each offer verified with the app's key (and a V2
/// JWS by PyJWT), an untrusted chain, an unreachable URL, bad flags, and a load of 200 requests.
@Suite("Retention Messaging: offerkit retention test-chain and try-endpoint", .serialized)
struct RetentionTryEndpointTests {
    static func url(_ serve: RetentionServe) -> String { serve.origin + RetentionServe.path }

    /// `try-endpoint` for the demo app with `arguments` added.
    static func tryEndpoint(_ serve: RetentionServe, chain: String, _ arguments: [String]) async throws -> CLIResult {
        try await CLI.run(
            [
                "retention", "try-endpoint", "--url", url(serve), "--chain", chain, "--app-apple-id",
                String(RetentionExample.appAppleId),
            ] + arguments)
    }

    static let credentials = ["--config", DemoKey.configPath, "--bundle-id", DemoKey.bundleId]

    /// A folder with a chain made by `offerkit retention test-chain` (its path: `chain`), and a real
    /// `offerkit serve` that trusts the chain's root.
    static func chainAndService() async throws -> (folder: TempDir, chain: String, serve: RetentionServe) {
        let folder = try TempDir.make()
        let chain = folder.file("chain")
        do {
            await #expect(try await CLI.run(["retention", "test-chain", "--out", chain]).status == 0)
            let serve = try await RetentionServe(
                rootPEM: try String(contentsOfFile: chain + "/root.pem", encoding: .utf8))
            return (folder, chain, serve)
        } catch {
            folder.remove()
            throw error
        }
    }

    @Test("test-chain writes the four files (the key 0600), refuses to overwrite without --force")
    func testChainWritesItsFolder() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let chain = folder.file("chain")
        let made = try await CLI.run(["retention", "test-chain", "--out", chain])
        #expect(made.status == 0, "\(made)")
        let lines = made.output.split(separator: "\n").map(String.init)
        #expect(lines.first == chain + "/root.pem", "\(made)")
        #expect(lines.dropFirst().first?.contains(#""rootCertificates": ["\#(chain)/root.pem"]"#) == true, "\(made)")
        for name in ["root.pem", "intermediate.pem", "leaf.pem", "leaf-key.pem"] {
            #expect(FileManager.default.fileExists(atPath: chain + "/" + name), "\(name) missing")
        }
        let mode = try FileManager.default.attributesOfItem(atPath: chain + "/leaf-key.pem")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let root = try String(contentsOfFile: chain + "/root.pem", encoding: .utf8)

        let again = try await CLI.run(["retention", "test-chain", "--out", chain])
        #expect(again.status == 5 && again.stderr.contains("root.pem: already exists; give --force"), "\(again)")
        #expect(try String(contentsOfFile: chain + "/root.pem", encoding: .utf8) == root, "overwritten without --force")
        let forced = try await CLI.run(["retention", "test-chain", "--out", chain, "--force", "--format", "json"])
        #expect(forced.status == 0, "\(forced)")
        #expect(forced.json?["rootCertificate"]?.string == chain + "/root.pem", "\(forced)")
        #expect(try String(contentsOfFile: chain + "/root.pem", encoding: .utf8) != root, "not replaced with --force")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: chain).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    }

    @Test("try-endpoint: every decision of the example rules, verified with the app's key; V2 by PyJWT too")
    func everyDecisionVerified() async throws {
        let (folder, chain, serve) = try await Self.chainAndService()
        defer {
            serve.terminate()
            folder.remove()
        }

        var v2: String?
        for request in RetentionExample.requests {
            let result = try await Self.tryEndpoint(
                serve, chain: chain,
                ["--product-id", request.productId, "--user-locale", request.userLocale, "--format", "json"]
                    + Self.credentials)
            #expect(result.status == 0, "\(result)")
            let json = try #require(result.json, "\(result)")
            #expect(json["status"]?.int == 200 && json["valid"]?.bool == true, "\(result)")
            #expect(json["decision"]?.string == request.kind, "\(request): \(result)")
            let signs = request.kind == "promotionalOffer" || request.kind == "advancedCommerceInfo"
            #expect(json["verified"]?.bool == signs, "\(request): \(result)")
            #expect(json["customerSees"]?.string?.isEmpty == false, "\(result)")
            if let jws = json["answer"]?["promotionalOffer"]?["promotionalOfferSignatureV2"]?.string { v2 = jws }
            if request.kind == "default" { #expect(json["answer"]?.object?.isEmpty == true, "\(result)") }
        }

        // Text: the status, the answer, what the customer sees.
        let text = try await Self.tryEndpoint(
            serve, chain: chain,
            ["--product-id", "com.example.offerkit.monthly", "--user-locale", "fr-FR"] + Self.credentials)
        #expect(text.status == 0, "\(text)")
        let lines = text.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("status 200 in ") == true, "\(text)")
        #expect(lines.contains { $0.hasPrefix(#"answer {"promotionalOffer":{"#) }, "\(text)")
        #expect(lines.contains { $0.contains("WINBACK50") && $0.contains("(V1 signature)") }, "\(text)")
        #expect(lines.contains("verified with the app's key"), "\(text)")

        // Another bundle ID's key check: the V2 JWS names the demo app, so it does not verify as another's.
        let wrongApp = try await Self.tryEndpoint(
            serve, chain: chain,
            [
                "--product-id", "com.example.offerkit.monthly", "--key-file", DemoKey.keyPath, "--key-id",
                DemoKey.keyId,
                "--bundle-id", "com.example.offerkit.other",
            ])
        #expect(wrongApp.status == 1 && wrongApp.stderr.contains("bid"), "\(wrongApp)")
        #expect(
            wrongApp.stderr.contains("a valid RealtimeResponseBody, but promotionalOffer"),
            "a body that is valid but does not verify is said to be so: \(wrongApp)")

        if await Independent.pythonAvailable || Independent.isCI {
            let token = try #require(v2, "no V2 offer was answered")
            let verified = try await Independent.verifyWithPython([(token, "promotional-offer")])
            #expect(verified.first?.claims["transactionId"]?.string == "2000000900000001")
        } else {
            print(Independent.pythonReason.rawValue)
        }
    }

    @Test("an untrusted chain: exit 1 with the hint; unreachable: exit 5; bad flags: exit 2 naming the flag")
    func failures() async throws {
        let (folder, trusted, serve) = try await Self.chainAndService()
        defer { folder.remove() }
        defer { serve.terminate() }
        // A chain of its own: its root is not the one the service trusts.
        let other = folder.file("other")
        await #expect(try await CLI.run(["retention", "test-chain", "--out", other]).status == 0)

        let untrusted = try await Self.tryEndpoint(
            serve, chain: other, ["--product-id", "com.example.offerkit.monthly"])
        #expect(untrusted.status == 1, "\(untrusted)")
        #expect(untrusted.output.hasPrefix("status 401"), "\(untrusted)")
        #expect(untrusted.stderr.contains("\(other)/root.pem in retention.rootCertificates"), "\(untrusted)")
        #expect(untrusted.stderr.contains("appAppleId 1234567890"), "\(untrusted)")
        let production = try await Self.tryEndpoint(
            serve, chain: trusted, ["--product-id", "com.example.offerkit.monthly", "--environment", "production"])
        #expect(production.status == 1 && production.stderr.contains("Production in retention.environments"))

        let closedPort = try ListeningSocket().port  // closed again at once: nothing listens there
        let unreachable = try await CLI.run([
            "retention", "try-endpoint", "--url", "http://127.0.0.1:\(closedPort)/v1/retention/realtime", "--chain",
            trusted, "--app-apple-id", "1234567890", "--product-id", "com.example.offerkit.monthly", "--timeout", "1",
        ])
        #expect(unreachable.status == 5 && unreachable.stderr.contains("could not be reached"), "\(unreachable)")

        // An answer whose bytes trickle in, each well within a read timeout: cut off at --timeout
        // in all (the head's deadline alone would let it run for 30 s).
        let trickling = try TricklingEndpoint()
        defer { trickling.stop() }
        let slow = try await CLI.run([
            "retention", "try-endpoint", "--url", "http://127.0.0.1:\(trickling.port)/v1/retention/realtime", "--chain",
            trusted, "--app-apple-id", "1234567890", "--product-id", "com.example.offerkit.monthly", "--timeout", "1",
        ])
        #expect(slow.status == 5 && slow.stderr.contains("no whole answer within 1 s (--timeout)"), "\(slow)")

        let missingChain = try await Self.tryEndpoint(
            serve, chain: folder.file("none"), ["--product-id", "com.example.offerkit.monthly"])
        #expect(missingChain.status == 5 && missingChain.stderr.contains("root.pem"), "\(missingChain)")

        let base = ["--product-id", "com.example.offerkit.monthly"]
        for (flags, named) in [
            (["--count", "100001"], "--count"), (["--count", "0"], "--count"),
            (["--concurrency", "257"], "--concurrency"),
            (["--concurrency", "0"], "--concurrency"), (["--environment", "beta"], "--environment"),
            (["--original-transaction-id", "12ab"], "--original-transaction-id"), (["--timeout", "0"], "--timeout"),
        ] {
            let result = try await Self.tryEndpoint(serve, chain: trusted, base + flags)
            #expect(result.status == 2 && result.stderr.contains(named), "\(flags): \(result)")
        }
        let badURL = try await CLI.run([
            "retention", "try-endpoint", "--url", "ftp://127.0.0.1/x", "--chain", trusted, "--app-apple-id", "1",
            "--product-id", "p",
        ])
        #expect(badURL.status == 2 && badURL.stderr.contains("--url"), "\(badURL)")
    }

    @Test("bad --product-id, --user-locale, --environment: exit 2 naming the flag and what was expected")
    func identifierFlags() async throws {
        let base = [
            "retention", "try-endpoint", "--url", "http://127.0.0.1:1/v1/retention/realtime", "--chain", "/nonexistent",
            "--app-apple-id", "1234567890",
        ]
        for (flags, expected) in [
            (["--product-id", "com example"], #"--product-id is invalid: expected a product ID of letters"#),
            (["--product-id", ".."], "--product-id is invalid"),
            (
                ["--product-id", "p", "--user-locale", "en US"],
                "--user-locale is invalid: expected a locale short code"
            ),
            (["--product-id", "p", "--user-locale", String(repeating: "a", count: 33)], "--user-locale is invalid"),
            (["--product-id", "p", "--user-locale", ""], "--user-locale is empty"),
            (
                ["--product-id", "p", "--environment", "beta"],
                #"--environment: "beta" is not "Sandbox" or "Production""#
            ),
        ] {
            let result = try await CLI.run(base + flags)
            #expect(result.status == 2 && result.stderr.contains(expected), "\(flags): \(result)")
        }
    }

    @Test("no answer at all within --timeout, and a refused connection: said plainly, never a client error's dump")
    func timeoutAndRefusalAreReadable() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let chain = folder.file("chain")
        await #expect(try await CLI.run(["retention", "test-chain", "--out", chain]).status == 0)
        let silent = try TricklingEndpoint(silent: true)
        defer { silent.stop() }
        let arguments = [
            "--chain", chain, "--app-apple-id", "1234567890", "--product-id", "com.example.offerkit.monthly",
            "--timeout", "1",
        ]
        // The client's read timeout and its deadline were as long as --timeout and raced it.
        for _ in 0..<3 {
            let result = try await CLI.run(
                ["retention", "try-endpoint", "--url", "http://127.0.0.1:\(silent.port)/v1/retention/realtime"]
                    + arguments)
            #expect(result.status == 5 && result.stderr.contains("no whole answer within 1 s (--timeout)"), "\(result)")
        }
        let closedPort = try ListeningSocket().port  // closed again at once: nothing listens there
        let refused = try await CLI.run(
            ["retention", "try-endpoint", "--url", "http://127.0.0.1:\(closedPort)/v1/retention/realtime"] + arguments)
        #expect(refused.status == 5 && refused.stderr.contains("could not be reached: "), "\(refused)")
        #expect(refused.stderr.contains("Connection refused"), "the reason, not only 'could not connect': \(refused)")
        #expect(!refused.stderr.contains("NIOConnectionError") && !refused.stderr.contains("errnoCode"), "\(refused)")
    }

    @Test("--count: the failures named by kind in the exit message; the concurrency reported is at most --count")
    func loadFailures() async throws {
        let (folder, trusted, serve) = try await Self.chainAndService()
        defer { folder.remove() }
        defer { serve.terminate() }
        // A chain of its own: its root is not the one the service trusts.
        let other = folder.file("other")
        await #expect(try await CLI.run(["retention", "test-chain", "--out", other]).status == 0)
        let untrusted = try await Self.tryEndpoint(
            serve, chain: other,
            ["--product-id", "com.example.offerkit.monthly", "--count", "3", "--concurrency", "8", "--format", "json"])
        #expect(untrusted.status == 1, "\(untrusted)")
        #expect(untrusted.stderr.contains("3 of 3 requests failed (HTTP 401 3); the first: "), "\(untrusted)")
        #expect(untrusted.json?["maxConcurrentRequests"]?.int == 3, "\(untrusted)")
        #expect(untrusted.json?["failures"]?["HTTP 401"]?.int == 3, "\(untrusted)")

        let silent = try TricklingEndpoint(silent: true)
        defer { silent.stop() }
        let timedOut = try await CLI.run([
            "retention", "try-endpoint", "--url", "http://127.0.0.1:\(silent.port)/v1/retention/realtime", "--chain",
            trusted, "--app-apple-id", "1234567890", "--product-id", "com.example.offerkit.monthly", "--timeout", "1",
            "--count", "2", "--concurrency", "2",
        ])
        #expect(timedOut.status == 5, "\(timedOut)")
        #expect(
            timedOut.stderr.contains("2 of 2 requests failed (timed out 2); the first: no whole answer"), "\(timedOut)")
        #expect(timedOut.output.contains("failures timed out 2"), "\(timedOut)")
    }

    @Test("--count 200 --concurrency 8: 100 % success, and the service counts 200 decisions")
    func load() async throws {
        let (folder, chain, serve) = try await Self.chainAndService()
        defer {
            serve.terminate()
            folder.remove()
        }
        let sample = #"offerkit_retention_decisions_total{kind="promotionalOffer"}"#
        let before = await RetentionServe.sample(sample, in: try serve.metrics()) ?? 0

        let result = try await Self.tryEndpoint(
            serve, chain: chain,
            [
                "--product-id", "com.example.offerkit.monthly", "--count", "200", "--concurrency", "8", "--format",
                "json",
            ]
                + Self.credentials)
        #expect(result.status == 0, "\(result)")
        let json = try #require(result.json, "\(result)")
        // The names of Apple's PerformanceTestResultResponse (`performance-test result --format json`).
        #expect(json["totalRequests"]?.int == 200 && json["successes"]?.int == 200, "\(result)")
        #expect(json["maxConcurrentRequests"]?.int == 8 && json["responseTimeThreshold"]?.int == 700, "\(result)")
        #expect(result.stdout.contains(#""successRate":100.00"#), "\(result)")
        #expect(json["decisions"]?["promotionalOffer"]?.int == 200, "\(result)")
        #expect(json["failures"]?.object?.isEmpty == true, "\(result)")
        for mark in ["average", "p50", "p90", "p95", "p99", "slowest"] {
            #expect(json["responseTimes"]?[mark] != nil, "\(mark) missing: \(result)")
        }
        let after = await RetentionServe.sample(sample, in: try serve.metrics()) ?? 0
        #expect(after - before == 200, "the service counted \(after - before) decisions")
    }
}
