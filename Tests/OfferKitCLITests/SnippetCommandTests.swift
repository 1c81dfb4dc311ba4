import Foundation
import InteropSupport
import Testing

@testable import CLITestSupport

/// `offerkit snippet`: every server snippet is rendered, run with its own toolchain against a
/// real `offerkit serve` on loopback, and what it prints is verified by PyJWT, `cryptography` and
/// `openssl`; app snippets are parsed (`swiftc -parse`, `clang -fsyntax-only`).
/// The suite runs its tests one at a time: each server language starts a service and a toolchain
/// (a JVM, the Swift compiler), and several at once would starve the timing-sensitive tests of the
/// other suites on a 2-core machine.
@Suite("offerkit snippet", .serialized)
struct SnippetCommandTests {
    static let operations = [
        "promotional-offer", "legacy-promotional-offer", "introductory-offer-eligibility", "advanced-commerce",
        "server-api-token", "connect-api-token", "batch",
    ]
    static let appSnippets: [(language: String, operations: [String])] = [
        ("swift-storekit", ["promotional-offer", "legacy-promotional-offer", "introductory-offer-eligibility"]),
        ("objc-storekit", ["legacy-promotional-offer"]),
    ]
    /// Values that every language must quote and escape: quotes, a backslash, shell syntax,
    /// non-ASCII and a character outside the Basic Multilingual Plane (a UTF-16 surrogate pair).
    static let productId = "com.example.über.pro"
    static let offerId = #"WIN"BACK\50 $HOME `id` 'ü' 😀"#
    static let appAccountToken = "7E3FB20B-4CDB-47CC-936D-99D65F608138"
    static let objcHeaders = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/objc-headers").path

    static func render(_ language: String, _ operation: String, port: Int) async throws -> String {
        let result = try await CLI.run([
            "snippet", "--language", language, "--operation", operation, "--base-url", "http://127.0.0.1:\(port)/",
            "--product-id", productId, "--offer-identifier", offerId, "--app-account-token", appAccountToken,
            "--transaction-id", "2000000123456789",
        ])
        try #require(result.status == 0, "\(result)")
        #expect(!result.stdout.contains("{{"), "an unrendered tag in:\n\(result.stdout)")
        return result.stdout
    }

    static var verifiersAvailable: Bool {
        get async {
            let python = await Independent.pythonAvailable
            let openssl = await Independent.opensslAvailable
            return python && openssl
        }
    }

    // One test per server language, each skipped loudly when its toolchain is missing (never in CI).
    @Test(
        .enabled(SnippetToolchain.curl.skipReason) { await SnippetToolchain.curl.isAvailable || Independent.isCI },
        .enabled(Independent.pythonReason) { await verifiersAvailable || Independent.isCI })
    func curlSnippetsRunAndVerify() async throws { try await Self.runAndVerify(.curl) }

    @Test(
        .enabled(SnippetToolchain.python.skipReason) { await SnippetToolchain.python.isAvailable || Independent.isCI },
        .enabled(Independent.pythonReason) { await verifiersAvailable || Independent.isCI })
    func pythonSnippetsRunAndVerify() async throws { try await Self.runAndVerify(.python) }

    @Test(
        .enabled(SnippetToolchain.node.skipReason) { await SnippetToolchain.node.isAvailable || Independent.isCI },
        .enabled(Independent.pythonReason) { await verifiersAvailable || Independent.isCI })
    func nodeSnippetsRunAndVerify() async throws { try await Self.runAndVerify(.node) }

    @Test(
        .enabled(SnippetToolchain.java.skipReason) { await SnippetToolchain.java.isAvailable || Independent.isCI },
        .enabled(Independent.pythonReason) { await verifiersAvailable || Independent.isCI })
    func javaSnippetsRunAndVerify() async throws { try await Self.runAndVerify(.java) }

    @Test(
        .enabled(SnippetToolchain.swift.skipReason) { await SnippetToolchain.swift.isAvailable || Independent.isCI },
        .enabled(Independent.pythonReason) { await verifiersAvailable || Independent.isCI })
    func swiftSnippetsRunAndVerify() async throws { try await Self.runAndVerify(.swift) }

    /// Renders every operation in `toolchain`'s language, runs each against a real `offerkit serve`
    /// with a fresh API key, and verifies what they print.
    static func runAndVerify(_ toolchain: SnippetToolchain) async throws {
        let key = try await ServeFixture.createKey(name: "snippets-\(toolchain.language)")
        let (server, port) = try await ServeFixture.start(keys: [key])
        defer { server.terminate() }
        let folder = try TempDir.make()
        defer { folder.remove() }
        var answers: [String: JSON] = [:]
        for operation in Self.operations {
            let source = try await Self.render(toolchain.language, operation, port: port)
            let run = try await toolchain.run(source, in: folder, apiKey: key.secret)
            #expect(run.status == 0, "\(toolchain.language) \(operation) failed:\n\(run.stderr)\n\(source)")
            let answer = JSON.parse(run.stdout)
            #expect(answer?.object != nil, "\(toolchain.language) \(operation) printed no JSON object:\n\(run.stdout)")
            answers[operation] = answer
        }
        try await Self.verify(answers, language: toolchain.language)
    }

    /// Checks every answer with the independent verifiers and against the rendered inputs.
    static func verify(_ answers: [String: JSON], language: String) async throws {
        let audiences = [
            "promotional-offer": "promotional-offer",
            "introductory-offer-eligibility": "introductory-offer-eligibility",
            "advanced-commerce": "advanced-commerce-api", "server-api-token": "appstoreconnect-v1",
            "connect-api-token": "appstoreconnect-v1",
        ]
        let order = operations.filter { audiences[$0] != nil }
        var tokens: [(token: String, audience: String)] = []
        for operation in order {
            let field = operation.hasSuffix("-token") ? "token" : "jws"
            let token = try #require(answers[operation]?[field]?.string, "\(language) \(operation): no \(field)")
            tokens.append((token, audiences[operation]!))
        }
        let verified = try await Independent.verifyWithPython(tokens)
        try #require(verified.count == order.count, "\(language): PyJWT did not verify every token")
        let claims = Dictionary(uniqueKeysWithValues: zip(order, verified.map(\.claims)))
        #expect(claims["promotional-offer"]?["productId"]?.string == productId, "\(language)")
        #expect(claims["promotional-offer"]?["offerIdentifier"]?.string == offerId, "\(language)")
        #expect(claims["promotional-offer"]?["transactionId"]?.string == "2000000123456789", "\(language)")
        #expect(claims["promotional-offer"]?["bid"]?.string == DemoKey.bundleId, "\(language)")
        #expect(claims["introductory-offer-eligibility"]?["allowIntroductoryOffer"] == .bool(false), "\(language)")
        #expect(claims["introductory-offer-eligibility"]?["productId"]?.string == productId, "\(language)")
        #expect(claims["server-api-token"]?["bid"]?.string == DemoKey.bundleId, "\(language)")
        #expect(claims["connect-api-token"]?["scope"] == .array([.string("GET /v1/apps")]), "\(language)")
        let request = try #require(claims["advanced-commerce"]?["request"]?.string, "\(language)")
        let requestJSON = try #require(
            Data(base64Encoded: request).flatMap { JSON.parse(String(decoding: $0, as: UTF8.self)) }, "\(language)")
        #expect(requestJSON["operation"]?.string == "CREATE_ONE_TIME_CHARGE", "\(language)")
        #expect(requestJSON["item"]?["SKU"]?.string == productId, "\(language)")
        let reference = requestJSON["requestInfo"]?["requestReferenceId"]?.string ?? ""
        #expect(UUID(uuidString: reference) != nil && reference == reference.lowercased(), "\(language): \(reference)")

        try await Self.verifyBatch(try #require(answers["batch"], "\(language): no batch answer"), language: language)

        let legacy = try #require(answers["legacy-promotional-offer"], "\(language)")
        #expect(legacy["appAccountToken"]?.string == appAccountToken.lowercased(), "\(language)")
        let message = Independent.legacyMessage(
            productId: productId, offerId: offerId, appAccountToken: appAccountToken,
            nonce: try #require(legacy["nonce"]?.string), timestamp: try #require(legacy["timestamp"]?.int))
        let checked = try await Independent.opensslVerify(
            signatureBase64: try #require(legacy["signature"]?.string), message: message)
        #expect(checked.status == 0, "\(language): openssl rejected the legacy signature: \(checked.stderr)")
    }

    /// The batch snippet's answer: its promotional offer as a JWS and as a legacy signature, both
    /// verified independently, in order, with their ids.
    static func verifyBatch(_ answer: JSON, language: String) async throws {
        let results = try #require(answer["results"]?.array, "\(language): \(answer)")
        try #require(results.count == 2, "\(language): \(answer)")
        #expect(answer["succeeded"] == .int(2), "\(language)")
        #expect(results.map { $0["id"]?.string } == ["jws", "legacy"], "\(language)")
        #expect(results.map { $0["status"] } == [.int(200), .int(200)], "\(language): \(answer)")
        let jws = try #require(results[0]["jws"]?.string, "\(language): no jws in the batch answer")
        let verified = try await Independent.verifyWithPython([(jws, "promotional-offer")])
        let claims = try #require(verified.first?.claims, "\(language): PyJWT did not verify the batch's JWS")
        #expect(claims["productId"]?.string == productId, "\(language)")
        #expect(claims["offerIdentifier"]?.string == offerId, "\(language)")
        #expect(claims["transactionId"]?.string == "2000000123456789", "\(language)")
        let legacy = results[1]
        #expect(legacy["appAccountToken"]?.string == appAccountToken.lowercased(), "\(language)")
        let message = Independent.legacyMessage(
            productId: productId, offerId: offerId, appAccountToken: appAccountToken,
            nonce: try #require(legacy["nonce"]?.string), timestamp: try #require(legacy["timestamp"]?.int))
        let checked = try await Independent.opensslVerify(
            signatureBase64: try #require(legacy["signature"]?.string), message: message)
        #expect(checked.status == 0, "\(language): openssl rejected the batch's legacy signature: \(checked.stderr)")
    }

    static let storeKitDeclarations = CLI.packageRoot.appendingPathComponent(
        "Tests/Fixtures/storekit-swift/StoreKit.swift"
    ).path

    @Test(
        "the app's Swift snippets parse (swiftc -parse) and type-check against StoreKit 2's documented interface"
    )
    func appSwiftSnippetsParse() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        // StoreKit does not exist on Linux: a module of its declarations, as Apple documents them.
        let module = try await Independent.run(
            "swiftc",
            [
                "-emit-module", "-parse-as-library", "-module-name", "StoreKit", "-emit-module-path",
                folder.file("StoreKit.swiftmodule"), Self.storeKitDeclarations,
            ])
        try #require(module.status == 0, "\(module.stderr)")
        for operation in Self.appSnippets[0].operations {
            let source = try await Self.render("swift-storekit", operation, port: 8080)
            #expect(source.contains("import StoreKit"))
            let path = try folder.write(source, to: "\(operation).swift")
            let parsed = try await Independent.run("swiftc", ["-parse", path])
            #expect(parsed.status == 0, "\(operation):\n\(parsed.stderr)\n\(source)")
            let checked = try await Independent.run(
                "swiftc", ["-typecheck", "-parse-as-library", "-I", folder.path, path])
            #expect(checked.status == 0, "\(operation):\n\(checked.stderr)\n\(source)")
        }
        // The type check has teeth: promotionalOffer(_:compactJWS:) gives a list, not one option.
        let offer = try await Self.render("swift-storekit", "promotional-offer", port: 8080)
        let wrong = offer.replacingOccurrences(
            of: "var options = Set(", with: "var options: Set<Product.PurchaseOption> = (")
        let failed = try await Independent.run(
            "swiftc",
            ["-typecheck", "-parse-as-library", "-I", folder.path, try folder.write(wrong, to: "wrong.swift")])
        #expect(failed.status != 0 && failed.stderr.contains("[Product.PurchaseOption]"), "\(failed.stderr)")
        let legacy = try await Self.render("swift-storekit", "legacy-promotional-offer", port: 8080)
        #expect(legacy.contains("Data(base64Encoded: signed.signature)"), "the signature must be decoded to Data")
        #expect(offer.contains(#""WIN\"BACK\\50 $HOME `id` 'ü' 😀""#), "\(offer)")
    }

    static var clangAvailable: Bool {
        get async { await ExternalProcess.succeeds("clang", ["--version"]) }
    }
    static let clangReason = Comment(
        rawValue: "SKIPPED LOUDLY: clang is not on PATH, so the Objective-C snippet is not checked here "
            + "(it ships with the Swift toolchain; CI never skips this)")

    @Test(
        "the app's Objective-C snippet compiles against StoreKit's documented interface (clang -fsyntax-only)",
        .enabled(clangReason) { await clangAvailable || Independent.isCI })
    func appObjectiveCSnippetChecks() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let source = try await Self.render("objc-storekit", "legacy-promotional-offer", port: 8080)
        let arguments = [
            "-fsyntax-only", "-x", "objective-c", "-fobjc-arc", "-fobjc-runtime=gnustep-2.0", "-Wall", "-Werror",
            "-Wno-unused-function", "-I", Self.objcHeaders,
        ]
        let checked = try await Independent.run("clang", arguments + [try folder.write(source, to: "offer.m")])
        #expect(checked.status == 0, "\(checked.stderr)\n\(source)")
        // The check has teeth: a misspelt selector fails it.
        let misspelt = source.replacingOccurrences(of: "initWithIdentifier:", with: "initWithIdentifer:")
        let failed = try await Independent.run("clang", arguments + [try folder.write(misspelt, to: "bad.m")])
        #expect(failed.status != 0 && failed.stderr.contains("initWithIdentifer"), "\(failed.stderr)")
    }

    @Test("--list shows every language, where it runs, and its operations")
    func list() async throws {
        let result = try await CLI.run(["snippet", "--list"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for toolchain in SnippetToolchain.all {
            let index = try #require(lines.firstIndex { $0.hasPrefix(toolchain.language + " ") }, "\(result.stdout)")
            #expect(lines[index].contains(" server "))
            let listed: [String] = lines[index + 1].split(separator: " ").map { String($0) }
            #expect(listed == Self.operations)
        }
        for (language, operations) in Self.appSnippets {
            let index = try #require(lines.firstIndex { $0.hasPrefix(language + " ") }, "\(result.stdout)")
            #expect(lines[index].contains(" app "))
            let listed: [String] = lines[index + 1].split(separator: " ").map { String($0) }
            #expect(listed == operations)
        }
    }

    @Test("--out writes the snippet whole (0644) and refuses to replace it without --force")
    func out() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        let path = folder.file("sign.py")
        let arguments = ["snippet", "--language", "python", "--operation", "server-api-token", "--out", path]
        let written = try await CLI.run(arguments)
        #expect(written.status == 0 && written.stdout.isEmpty, "\(written)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("def create_server_api_token"))
        #expect(FileMode.of(path) == 0o644)
        let refused = try await CLI.run(arguments)
        #expect(refused.status == 5 && refused.stderr.contains("already exists"), "\(refused)")
        await #expect(try await CLI.run(arguments + ["--force"]).status == 0)
    }

    @Test(
        "bad choices and inputs are usage errors (exit 2) that name what is expected",
        arguments: [
            (["--language", "cobol", "--operation", "promotional-offer"], "expected one of: curl, python"),
            (["--language", "objc-storekit", "--operation", "promotional-offer"], "legacy-promotional-offer"),
            (["--language", "python", "--operation", "campaigns"], "server-api-token"),
            (["--language", "python"], "--operation"),
            (["--language", "curl", "--operation", "server-api-token", "--base-url", "ftp://x"], "baseURL"),
            (
                ["--language", "curl", "--operation", "server-api-token", "--base-url", "http://h/?q=1"],
                "without query"
            ),
            (["--language", "curl", "--operation", "server-api-token", "--bundle-id", "not a bundle"], "bundleId"),
            (["--language", "curl", "--operation", "promotional-offer", "--offer-id", "a\nb"], "offerIdentifier"),
            (
                ["--language", "curl", "--operation", "promotional-offer", "--offer-identifier", "a\nb"],
                "offerIdentifier"
            ),
            (
                [
                    "--language", "curl", "--operation", "promotional-offer", "--offer-identifier", "A", "--offer-id",
                    "B",
                ],
                "give only --offer-identifier"
            ),
            (["--language", "curl", "--operation", "promotional-offer", "--app-account-token", "nope"], "UUID"),
            (["--language", "curl", "--operation", "promotional-offer", "--api-key-env", "1X"], "apiKeyVariable"),
        ])
    func usageErrors(arguments: [String], expected: String) async throws {
        let result = try await CLI.run(["snippet"] + arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(expected), "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
    }

    @Test("deprecated spellings (--offer-id, promotional-offer-v1, intro-eligibility) work, with a note on stderr")
    func deprecatedSpellings() async throws {
        let current = try await CLI.run([
            "snippet", "--language", "python", "--operation", "legacy-promotional-offer", "--offer-identifier", "X1",
        ])
        #expect(current.status == 0 && current.stderr.isEmpty, "\(current)")
        let old = try await CLI.run([
            "snippet", "--language", "python", "--operation", "promotional-offer-v1", "--offer-id", "X1",
        ])
        #expect(old.status == 0, "\(old)")
        #expect(
            old.stdout.replacingOccurrences(of: #"[0-9a-f-]{36}"#, with: "", options: .regularExpression)
                == current.stdout.replacingOccurrences(of: #"[0-9a-f-]{36}"#, with: "", options: .regularExpression))
        #expect(
            old.stderr.contains("--offer-id is deprecated") && old.stderr.contains("now --offer-identifier"),
            "\(old)")
        #expect(
            old.stderr.contains("'promotional-offer-v1' is deprecated")
                && old.stderr.contains("'legacy-promotional-offer'"), "\(old)")
        let eligibility = try await CLI.run(["snippet", "--language", "curl", "--operation", "intro-eligibility"])
        #expect(
            eligibility.status == 0 && eligibility.stdout.contains("introductory-offer-eligibility"), "\(eligibility)")
        #expect(eligibility.stderr.contains("'intro-eligibility' is deprecated"), "\(eligibility)")
        // Never printed: the listing and the snippets use the current names only (apart from the
        // service's own path, which the snippet takes from the service's operation for its scope).
        let list = try await CLI.run(["snippet", "--list"])
        let oldText = old.stdout.replacingOccurrences(of: "/v1/signatures/promotional-offer-v1", with: "")
        for spelling in ["promotional-offer-v1", "intro-eligibility", "advanced-commerce-api"] {
            #expect(!list.stdout.contains(spelling), "\(spelling) in --list")
            #expect(!oldText.contains(spelling) && !eligibility.stdout.contains(spelling), "\(spelling)")
        }
    }

    @Test("a template folder of your own: its files first, built-ins for the rest, new languages listed")
    func ownTemplates() async throws {
        let folder = try TempDir.make()
        defer { folder.remove() }
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("python"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("ruby"), withIntermediateDirectories: true)
        try folder.write("# mine {{{json.productId}}} {{> _client}}\n", to: "python/promotional-offer.mustache")
        try folder.write("CLIENT {{apiKeyVariable}}", to: "python/_client.mustache")
        try folder.write(
            "uri = URI({{{json.url}}}) # {{operationId}} {{scope}}\n", to: "ruby/server-api-token.mustache")

        let mine = try await CLI.run([
            "snippet", "--templates", folder.path, "--language", "python", "--operation", "promotional-offer",
            "--api-key-env", "MY_KEY",
        ])
        #expect(mine.stdout == "# mine \"com.example.offerkit.monthly\" CLIENT MY_KEY\n", "\(mine)")
        // Files the folder lacks come from the built-ins, and use the folder's partials.
        let fallback = try await CLI.run([
            "snippet", "--templates", folder.path, "--language", "python", "--operation", "server-api-token",
        ])
        #expect(fallback.status == 0 && fallback.stdout.contains("CLIENT OFFERKIT_API_KEY"), "\(fallback)")
        let ruby = try await CLI.run([
            "snippet", "--templates", folder.path, "--language", "ruby", "--operation", "server-api-token",
            "--base-url", "https://offers.example.com/base",
        ])
        #expect(
            ruby.stdout == "uri = URI(\"https://offers.example.com/base/v1/tokens/server-api\") # "
                + "createServerAPIToken server-api-token\n", "\(ruby)")
        let list = try await CLI.run(["snippet", "--templates", folder.path, "--list"])
        #expect(list.stdout.contains("ruby "), "\(list)")
        #expect(list.stdout.contains("swift-storekit "), "\(list)")
    }

    @Test("a missing template folder is an I/O error (5), a malformed template names file and line (4)")
    func templateErrors() async throws {
        let missing = try await CLI.run(["snippet", "--templates", "/nonexistent/snippets", "--list"])
        #expect(missing.status == 5 && missing.stderr.contains("/nonexistent/snippets"), "\(missing)")
        let folder = try TempDir.make()
        defer { folder.remove() }
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("curl"), withIntermediateDirectories: true)
        try folder.write("line one\n{{#open}} never closed\n", to: "curl/server-api-token.mustache")
        let malformed = try await CLI.run([
            "snippet", "--templates", folder.path, "--language", "curl", "--operation", "server-api-token",
        ])
        #expect(malformed.status == 4, "\(malformed)")
        #expect(malformed.stderr.contains("curl/server-api-token.mustache"), "\(malformed)")
        #expect(malformed.stderr.contains("never closed") || malformed.stderr.contains("line"), "\(malformed)")
        try folder.write("{{> _nowhere}}\n", to: "curl/server-api-token.mustache")
        let missingPartial = try await CLI.run([
            "snippet", "--templates", folder.path, "--language", "curl", "--operation", "server-api-token",
        ])
        #expect(missingPartial.status == 4, "\(missingPartial)")
        #expect(
            missingPartial.stderr.contains("_nowhere") && missingPartial.stderr.contains("_curl"), "\(missingPartial)")
    }

    @Test("the rendered snippets of docs/clients.md are what offerkit snippet renders today")
    func readmeSnippetsAreCurrent() async throws {
        let guide = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("docs/clients.md"), encoding: .utf8)
        let blocks = guide.matches(of: /<!-- snippet: (\S+) (\S+) -->\n```\S*\n((?s:.*?))```\n<!-- end snippet -->/)
        #expect(blocks.count == 7, "one block per language")
        #expect(
            Set(blocks.map { String($0.1) })
                == Set(SnippetToolchain.all.map(\.language) + Self.appSnippets.map(\.language)))
        for block in blocks {
            let rendered = try await CLI.run(["snippet", "--language", String(block.1), "--operation", String(block.2)])
            #expect(
                rendered.stdout == String(block.3),
                "docs/clients.md's \(block.1) \(block.2) snippet is stale: run templates/readme-snippets")
        }
    }
}
