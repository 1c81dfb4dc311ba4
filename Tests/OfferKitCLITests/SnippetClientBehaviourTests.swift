import Foundation
import Testing

@testable import CLITestSupport

/// What every server snippet does as a client of a real `offerkit serve`: it signs without a
/// made-up transaction ID, raises the service's problem with its fields, retries a 429 after its
/// `Retry-After`, and (Node, Python) runs no example call when imported as a module.
/// In ``SnippetCommandTests``, so that these also run one at a time.
extension SnippetCommandTests {
    @Test(
        .enabled(SnippetToolchain.curl.skipReason) { await SnippetToolchain.curl.isAvailable || Independent.isCI })
    func curlSnippetsAsClients() async throws { try await Self.clientBehaviour(.curl) }

    @Test(
        .enabled(SnippetToolchain.python.skipReason) { await SnippetToolchain.python.isAvailable || Independent.isCI })
    func pythonSnippetsAsClients() async throws { try await Self.clientBehaviour(.python) }

    @Test(
        .enabled(SnippetToolchain.node.skipReason) { await SnippetToolchain.node.isAvailable || Independent.isCI })
    func nodeSnippetsAsClients() async throws { try await Self.clientBehaviour(.node) }

    @Test(
        .enabled(SnippetToolchain.java.skipReason) { await SnippetToolchain.java.isAvailable || Independent.isCI })
    func javaSnippetsAsClients() async throws { try await Self.clientBehaviour(.java) }

    @Test(
        .enabled(SnippetToolchain.swift.skipReason) { await SnippetToolchain.swift.isAvailable || Independent.isCI })
    func swiftSnippetsAsClients() async throws { try await Self.clientBehaviour(.swift) }

    /// A bundle ID that `keys-example/service.json` does not configure: the service answers 404
    /// `unknown-app` with `field: bundleId`.
    static let unconfiguredBundleId = "com.example.offerkit.nowhere"
    static let customerTransactionId = "2000000987654321"

    static func clientBehaviour(_ toolchain: SnippetToolchain) async throws {
        let language = toolchain.language
        let key = try await ServeFixture.createKey(name: "clients-\(language)")
        let (server, port) = try await ServeFixture.start(keys: [key])
        defer { server.terminate() }
        let folder = try TempDir.make()
        defer { folder.remove() }

        // Without --transaction-id: a promotional offer is signed without one…
        let offer = try await Self.renderPlain(language, "promotional-offer", port: port)
        let signed = try await toolchain.run(offer, in: folder, apiKey: key.secret)
        #expect(signed.status == 0, "\(language): \(signed.stderr)\n\(offer)")
        let offerClaims = Self.claims(ofJWSIn: signed.stdout)
        #expect(offerClaims?["productId"]?.string == "com.example.offerkit.monthly", "\(language): \(signed.stdout)")
        #expect(offerClaims?["transactionId"] == nil, "\(language): \(signed.stdout)")
        // …and eligibility takes the customer's from the environment, or stops naming the variable.
        let eligibility = try await Self.renderPlain(language, "introductory-offer-eligibility", port: port)
        let missing = try await toolchain.run(eligibility, in: folder, apiKey: key.secret)
        #expect(missing.status != 0, "\(language): \(missing.stdout)")
        #expect(missing.stderr.contains("CUSTOMER_TRANSACTION_ID"), "\(language): \(missing.stderr)")
        let given = try await toolchain.run(
            eligibility, in: folder, apiKey: key.secret,
            environment: ["CUSTOMER_TRANSACTION_ID": Self.customerTransactionId])
        #expect(given.status == 0, "\(language): \(given.stderr)")
        #expect(
            Self.claims(ofJWSIn: given.stdout)?["transactionId"]?.string == Self.customerTransactionId,
            "\(language): \(given.stdout)")

        try await Self.expectProblemFields(toolchain, port: port, key: key, in: folder)
        if language == "node" || language == "python" {
            try await Self.expectImportMakesNoRequest(toolchain, port: port, key: key, in: folder)
        }
        try await Self.expectRateLimitRetried(toolchain, in: folder)
    }

    /// `offerkit snippet` with only the language, the operation and the base URL.
    static func renderPlain(_ language: String, _ operation: String, port: Int, _ extra: [String] = []) async throws
        -> String
    {
        let result = try await CLI.run(
            ["snippet", "--language", language, "--operation", operation, "--base-url", "http://127.0.0.1:\(port)"]
                + extra)
        try #require(result.status == 0, "\(result)")
        return result.stdout
    }

    /// The claims of the compact JWS in the `jws` member of the JSON object `output` (not verified:
    /// the snippets' signatures are verified by ``runAndVerify(_:)``).
    static func claims(ofJWSIn output: String) -> JSON? {
        guard let jws = JSON.parse(output)?["jws"]?.string else { return nil }
        let parts = jws.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).flatMap { JSON.parse(String(decoding: $0, as: UTF8.self)) }
    }

    /// A promotional offer for a bundle ID the service does not know: the language's error carries
    /// the problem's status, type, detail and field (read from the error object by a small caller
    /// in the language; curl prints the problem and exits 22; Swift's error describes its fields).
    static func expectProblemFields(
        _ toolchain: SnippetToolchain, port: Int, key: ServeFixture.CreatedKey, in folder: TempDir
    ) async throws {
        let language = toolchain.language
        let source = try await Self.renderPlain(
            language, "promotional-offer", port: port, ["--bundle-id", Self.unconfiguredBundleId])
        let fields: JSON?
        switch language {
        case "curl":
            let run = try await toolchain.run(source, in: folder, apiKey: key.secret)
            #expect(run.status == 22, "\(run)")
            fields = JSON.parse(run.stdout)
        case "python":
            _ = try folder.write(source, to: "offerkit_problem.py")
            let caller = """
                import json, sys
                sys.path.insert(0, \(folder.pythonLiteral))
                import offerkit_problem as snippet
                try:
                    snippet.sign_promotional_offer("com.example.offerkit.monthly", "WINBACK50")
                except snippet.OfferKitError as error:
                    print(json.dumps({"status": error.status, "type": error.type, "detail": error.detail,
                                      "field": error.field, "requestId": error.request_id}))
                """
            fields = await JSON.parse(try Self.runChecked(["python3", "-c", caller], key: key).stdout)
        case "node":
            _ = try folder.write(source, to: "s.mjs")
            let caller = """
                import { signPromotionalOffer, OfferKitError } from "./s.mjs";
                try {
                  await signPromotionalOffer("com.example.offerkit.monthly", "WINBACK50");
                } catch (error) {
                  if (!(error instanceof OfferKitError)) throw error;
                  const { status, type, detail, field, requestId } = error;
                  console.log(JSON.stringify({ status, type, detail, field, requestId }));
                }
                """
            let path = try folder.write(caller, to: "caller.mjs")
            fields = await JSON.parse(try Self.runChecked(["node", path], key: key).stdout)
        case "java":
            let name = try #require(source.firstMatch(of: /public class (\w+)/).map { String($0.1) })
            let snippet = try folder.write(source, to: "\(name).java")
            let caller = """
                public class Caller {
                    public static void main(String[] args) throws Exception {
                        try {
                            \(name).signPromotionalOffer("com.example.offerkit.monthly", "WINBACK50", null);
                        } catch (\(name).OfferKitException error) {
                            System.out.println("{\\"status\\":" + error.status + ",\\"type\\":" + \(name).json(error.type)
                                    + ",\\"detail\\":" + \(name).json(error.detail) + ",\\"field\\":" + \(name).json(error.field)
                                    + ",\\"requestId\\":" + \(name).json(error.requestId) + "}");
                        }
                    }
                }
                """
            let callerPath = try folder.write(caller, to: "Caller.java")
            let classes = folder.file("classes")
            let compiled = try await Independent.run("javac", ["-d", classes, snippet, callerPath])
            try #require(compiled.status == 0, "\(compiled.stderr)")
            fields = await JSON.parse(try Self.runChecked(["java", "-cp", classes, "Caller"], key: key).stdout)
        case "swift":
            // A top-level error ends the script with the error's description, made of its fields.
            let run = try await toolchain.run(source, in: folder, apiKey: key.secret)
            #expect(run.status != 0, "\(run)")
            #expect(
                run.stderr.contains("OfferKit answered 404 urn:offerkit:problem:unknown-app (field bundleId): ")
                    && run.stderr.contains(Self.unconfiguredBundleId), "\(run.stderr)")
            return
        default:
            throw CLIRunnerError(description: "no caller for \(language)")
        }
        #expect(fields?["status"] == .int(404), "\(language): \(String(describing: fields))")
        #expect(fields?["type"]?.string == "urn:offerkit:problem:unknown-app", "\(language)")
        #expect(fields?["field"]?.string == "bundleId", "\(language)")
        #expect(fields?["detail"]?.string?.contains(Self.unconfiguredBundleId) == true, "\(language)")
        #expect(fields?["requestId"]?.string?.isEmpty == false, "\(language)")
    }

    /// Imported as a module, the Node and Python snippets define their functions and call nothing:
    /// the caller's own line is all that is printed, and the service counts no signing request.
    static func expectImportMakesNoRequest(
        _ toolchain: SnippetToolchain, port: Int, key: ServeFixture.CreatedKey, in folder: TempDir
    ) async throws {
        let source = try await Self.renderPlain(toolchain.language, "promotional-offer", port: port)
        let before = await Self.requestCount(
            operation: "signPromotionalOffer", in: try Self.metrics(port: port, key: key))
        let imported: Independent.Result
        if toolchain.language == "node" {
            _ = try folder.write(source, to: "s.mjs")
            let caller = try folder.write(
                #"import * as snippet from "./s.mjs"; console.log(Object.keys(snippet).sort().join(" "));"#,
                to: "importer.mjs")
            imported = try await Self.runChecked(["node", caller], key: key)
            #expect(imported.stdout == "OfferKitError signPromotionalOffer\n", "\(imported)")
        } else {
            _ = try folder.write(source, to: "offerkit_import.py")
            let caller = """
                import sys
                sys.path.insert(0, \(folder.pythonLiteral))
                import offerkit_import
                print(offerkit_import.sign_promotional_offer.__name__)
                """
            imported = try await Self.runChecked(["python3", "-c", caller], key: key)
            #expect(imported.stdout == "sign_promotional_offer\n", "\(imported)")
        }
        let after = await Self.requestCount(
            operation: "signPromotionalOffer", in: try Self.metrics(port: port, key: key))
        #expect(after == before, "\(toolchain.language): importing the snippet made \(after - before) requests")
    }

    /// A service that allows each API key one request per 5 seconds: a request with the snippet's
    /// key uses it up, so the snippet's first call gets a 429 with `Retry-After: 5`, which it waits
    /// out and then succeeds. The service's metrics show the 429 and both signatures.
    static func expectRateLimitRetried(_ toolchain: SnippetToolchain, in folder: TempDir) async throws {
        let language = toolchain.language
        let key = try await ServeFixture.createKey(name: "limited-\(language)")
        let metricsKey = try await ServeFixture.createKey(name: "metrics-\(language)", ["--scope", "metrics"])
        let (server, port) = try await ServeFixture.start(
            ["--rate-limit", "0.2", "--burst", "1"], keys: [key, metricsKey])
        defer { server.terminate() }
        let source = try await Self.renderPlain(language, "server-api-token", port: port)
        // Compile first (Java, Swift), so that the snippet calls within the 5 seconds.
        let command: [String]
        switch try await toolchain.prepare(source, in: folder) {
        case .success(let prepared): command = prepared
        case .failure(let failure): throw CLIRunnerError(description: "\(failure.result)")
        }
        let used = try await HTTPConnection.request(
            "POST", "/v1/tokens/server-api", port: port,
            headers: [("Authorization", "Bearer \(key.secret)"), ("Content-Type", "application/json")],
            body: #"{"bundleId":"\#(DemoKey.bundleId)","lifetime":300}"#)
        try #require(used.status == 200, "\(used)")
        let started = Date()
        let run = try await SnippetToolchain.run(command, apiKey: key.secret)
        let seconds = Date().timeIntervalSince(started)
        #expect(run.status == 0, "\(language): \(run.stderr)\n\(source)")
        #expect(JSON.parse(run.stdout)?["token"]?.string != nil, "\(language): \(run.stdout)")
        // One read: the metrics key, too, may make one request per 5 seconds.
        let metrics = try await Self.metrics(port: port, key: metricsKey)
        let limited = Self.requestCount(operation: "createServerAPIToken", status: 429, in: metrics)
        let succeeded = Self.requestCount(operation: "createServerAPIToken", status: 200, in: metrics)
        #expect(limited >= 1, "\(language): the snippet got no 429 (it ran \(seconds) s after the token was used)")
        #expect(succeeded == 2, "\(language): \(succeeded) tokens made")
        #expect(seconds >= 1, "\(language): a retry before Retry-After")
    }

    /// The service's metrics (Prometheus text), read with `key`.
    static func metrics(port: Int, key: ServeFixture.CreatedKey) async throws -> String {
        let reply = try await HTTPConnection.request(
            "GET", "/metrics", port: port, headers: [("Authorization", "Bearer \(key.secret)")])
        try #require(reply.status == 200, "\(reply)")
        return reply.body
    }

    /// The sum of `offerkit_http_requests_total` for `operation` (and `status`, if given) in `metrics`.
    static func requestCount(operation: String, status: Int? = nil, in metrics: String) -> Int {
        var total = 0
        for line in metrics.split(separator: "\n") where line.hasPrefix("offerkit_http_requests_total{") {
            guard line.contains(#"operation="\#(operation)""#) else { continue }
            if let status, !line.contains(#"status="\#(status)""#) { continue }
            if let value = line.split(separator: " ").last.flatMap({ Double($0) }) { total += Int(value) }
        }
        return total
    }

    /// Runs `command` with the API key, and requires it to succeed.
    static func runChecked(_ command: [String], key: ServeFixture.CreatedKey) async throws -> Independent.Result {
        let result = try await SnippetToolchain.run(command, apiKey: key.secret)
        try #require(result.status == 0, "\(command[0]): \(result)")
        return result
    }
}

extension TempDir {
    /// The folder's path as a Python string literal (a temporary folder's path holds no quotes).
    fileprivate var pythonLiteral: String { "'" + path + "'" }
}
