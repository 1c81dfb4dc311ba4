import Foundation
import OfferSigning
import Testing

@testable import CLITestSupport

/// `offerkit serve`, run as a real process on a loopback port and called over HTTP.
@Suite("offerkit serve")
struct ServeCommandTests {
    static let otherBundleId = "com.example.offerkit.other"
    static let signPath = "/v1/signatures/promotional-offer"

    static func offerBody(bundleId: String) -> String {
        #"{"bundleId":"\#(bundleId)","productId":"com.example.offerkit.monthly","offerIdentifier":"WINBACK50"}"#
    }

    static func signHeaders(_ key: ServeFixture.CreatedKey?, requestId: String) -> [(String, String)] {
        var headers = [("Content-Type", "application/json"), ("X-Request-Id", requestId)]
        if let key { headers.append(("Authorization", "Bearer \(key.secret)")) }
        return headers
    }

    /// Verifies a service response's JWS with the demo public key and checks its claims.
    static func expectSignedOffer(
        _ reply: HTTPReply, bundleId: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(reply.status == 200, "\(reply)", sourceLocation: sourceLocation)
        let json = try #require(reply.json, "\(reply)", sourceLocation: sourceLocation)
        let jws = try #require(json["jws"]?.string, "\(reply)", sourceLocation: sourceLocation)
        let pem = try String(contentsOfFile: DemoKey.publicKeyPath, encoding: .utf8)
        let verified = try JWSVerifier(publicKeyPEM: pem).verify(jws, as: .promotionalOffer)
        #expect(verified.header.kid == DemoKey.keyId, sourceLocation: sourceLocation)
        #expect(verified.claims.iss == DemoKey.issuerId, sourceLocation: sourceLocation)
        #expect(verified.claims.bid == bundleId, sourceLocation: sourceLocation)
        #expect(verified.claims.productId == "com.example.offerkit.monthly", sourceLocation: sourceLocation)
        #expect(verified.claims.offerIdentifier == "WINBACK50", sourceLocation: sourceLocation)
        #expect(verified.claims.nonce == json["nonce"]?.string, sourceLocation: sourceLocation)
        #expect(json["keyId"]?.string == DemoKey.keyId, sourceLocation: sourceLocation)
    }

    @Test func servesSignsAuthenticatesAndExitsZeroOnSIGTERM() async throws {
        let signer = try await ServeFixture.createKey(name: "e2e-signer")
        let metricsOnly = try await ServeFixture.createKey(name: "e2e-metrics", ["--scope", "metrics"])
        let (server, port) = try await ServeFixture.start(keys: [signer, metricsOnly])

        let health = try await HTTPConnection.request("GET", "/healthz", port: port)
        #expect(health.status == 200 && health.json?["status"]?.string == "ok", "\(health)")
        let ready = try await HTTPConnection.request("GET", "/readyz", port: port)
        #expect(ready.status == 200 && ready.json?["status"]?.string == "ready", "\(ready)")
        #expect(ready.json?["apps"]?.int == 2, "two apps in keys-example/service.json\n\(ready)")

        // Either app, one shared team key.
        let signed = try await HTTPConnection.request(
            "POST", Self.signPath, port: port, headers: Self.signHeaders(signer, requestId: "e2e-sign-1"),
            body: Self.offerBody(bundleId: Self.otherBundleId))
        try Self.expectSignedOffer(signed, bundleId: Self.otherBundleId)
        #expect(signed.header("X-Request-Id") == "e2e-sign-1", "the caller's request id comes back\n\(signed)")
        #expect(signed.header("Content-Type")?.hasPrefix("application/json") == true)
        let demo = try await HTTPConnection.request(
            "POST", Self.signPath, port: port, headers: Self.signHeaders(signer, requestId: "e2e-sign-2"),
            body: Self.offerBody(bundleId: DemoKey.bundleId))
        try Self.expectSignedOffer(demo, bundleId: DemoKey.bundleId)

        let anonymous = try await HTTPConnection.request(
            "POST", Self.signPath, port: port, headers: Self.signHeaders(nil, requestId: "e2e-anonymous"),
            body: Self.offerBody(bundleId: DemoKey.bundleId))
        #expect(anonymous.status == 401, "\(anonymous)")
        #expect(anonymous.header("Content-Type")?.hasPrefix("application/problem+json") == true, "\(anonymous)")
        #expect(anonymous.header("WWW-Authenticate")?.hasPrefix("Bearer") == true, "\(anonymous)")
        #expect(anonymous.json?["status"]?.int == 401)
        #expect(anonymous.json?["type"]?.string?.hasPrefix("urn:offerkit:problem:") == true, "\(anonymous)")
        #expect(anonymous.header("X-Request-Id") == "e2e-anonymous")
        #expect(anonymous.json?["jws"] == nil)

        let outOfScope = try await HTTPConnection.request(
            "POST", Self.signPath, port: port, headers: Self.signHeaders(metricsOnly, requestId: "e2e-scope"),
            body: Self.offerBody(bundleId: DemoKey.bundleId))
        #expect(outOfScope.status == 403, "a metrics-only key may not sign\n\(outOfScope)")

        server.terminate()
        let run = await server.waitForExit()
        #expect(run.status == 0, "SIGTERM is a graceful stop: exit 0\n\(run)")
        #expect(run.stdout.isEmpty, "logs go to stderr\n\(run)")
        let lines = run.stderr.split(separator: "\n")
        let signLine = lines.first { $0.contains("request.id=e2e-sign-1") }
        #expect(signLine?.contains("http.status=200") == true, "one log line per request, with its id\n\(run)")
        #expect(signLine?.contains("api.key=e2e-signer") == true, "the key's name, not its secret\n\(run)")
        #expect(lines.contains { $0.contains("request.id=e2e-anonymous") && $0.contains("http.status=401") })
        #expect(!run.stderr.contains(signer.secret) && !run.stderr.contains(metricsOnly.secret), "no secret in logs")
        #expect(run.stderr.contains("graceful shutdown"), "\(run)")
    }

    /// A request whose head and half its body have reached the server when SIGTERM arrives is
    /// answered in full, and the process still exits 0.
    ///
    /// Deterministic without timing: the test waits until the server process has read the bytes
    /// (the kernel's receive queue of the server's socket is empty, `/proc/net/tcp`), sends SIGTERM,
    /// waits until the port refuses new connections (graceful shutdown has begun), and only then
    /// sends the rest of the body.
    @Test(
        .enabled(
            if: FileManager.default.isReadableFile(atPath: "/proc/net/tcp") || Independent.isCI,
            Comment(
                rawValue: "SKIPPED LOUDLY: /proc/net/tcp cannot be read (not Linux), so the test cannot tell when the "
                    + "server has read a request; CI never skips this")))
    func aRequestInFlightAtSIGTERMIsAnsweredBeforeExit() async throws {
        let key = try await ServeFixture.createKey(name: "in-flight")
        // The request waits for the shutdown to begin, which on a loaded machine (other suites run
        // in parallel) can take longer than the demo configuration's 10 s request timeout; this test
        // is about the shutdown, so the timeout is out of its way.
        let (server, port) = try await ServeFixture.start(["--timeout", "120"], keys: [key])
        let body = Array(Self.offerBody(bundleId: Self.otherBundleId).utf8)
        let connection = try HTTPConnection(port: port)
        try connection.send(
            HTTPConnection.head(
                "POST", Self.signPath, headers: Self.signHeaders(key, requestId: "e2e-in-flight"),
                contentLength: body.count))
        try connection.send(Array(body[..<(body.count / 2)]))
        _ = try await server.waitUntil("the server reading the request's head and first half") {
            connection.unreadByServer() == 0 ? true : nil
        }

        server.terminate()
        _ = try await server.waitUntil("the port refusing new connections") {
            HTTPConnection.accepts(port: port) ? nil : true
        }
        // Readiness flipped before the listener closed (the group stops its services in reverse order).
        #expect(server.stderr.contains("graceful shutdown: /readyz answers 503"), "\(server.result())")
        #expect(server.isRunning, "the server waits for the request in flight")

        try connection.send(Array(body[(body.count / 2)...]))
        let reply = try await connection.readReply()
        try Self.expectSignedOffer(reply, bundleId: Self.otherBundleId)
        #expect(reply.header("X-Request-Id") == "e2e-in-flight")

        let run = await server.waitForExit()
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("request.id=e2e-in-flight"), "\(run)")
    }

    @Test func aBodyThatNeverArrivesIsCutOffByTheRequestTimeout() async throws {
        let key = try await ServeFixture.createKey(name: "slow-body")
        let (server, port) = try await ServeFixture.start(["--timeout", "1"], keys: [key])
        let body = Array(Self.offerBody(bundleId: Self.otherBundleId).utf8)
        do {
            let connection = try HTTPConnection(port: port)
            try connection.send(
                HTTPConnection.head(
                    "POST", Self.signPath, headers: Self.signHeaders(key, requestId: "e2e-slow-body"),
                    contentLength: body.count))
            try connection.send(Array(body[..<(body.count / 2)]))
            // The rest of the body is never sent: the answer must come anyway, from the request timeout.
            // The client is at fault: a 408 (never a 5xx), and the connection is closed.
            let reply = try await connection.readReply()
            #expect(reply.status == 408, "\(reply)")
            #expect(reply.json?["type"]?.string == "urn:offerkit:problem:body-timeout", "\(reply)")
            #expect(reply.header("Connection") == "close", "\(reply)")
            await #expect(connection.readUntilClosed(seconds: 20).closed, "the server closes the connection")
        }
        server.terminate()
        let run = await server.waitForExit()
        #expect(run.status == 0, "\(run)")
    }

    @Test(.enabled(Independent.pythonReason) { await Independent.pythonAvailable || Independent.isCI })
    func theServicesSignaturesVerifyWithPyJWTAndCryptography() async throws {
        let key = try await ServeFixture.createKey(name: "independent")
        let (server, port) = try await ServeFixture.start(keys: [key])
        var tokens: [(token: String, audience: String)] = []
        for (index, bundleId) in [DemoKey.bundleId, Self.otherBundleId].enumerated() {
            let reply = try await HTTPConnection.request(
                "POST", Self.signPath, port: port, headers: Self.signHeaders(key, requestId: "independent-\(index)"),
                body: Self.offerBody(bundleId: bundleId))
            #expect(reply.status == 200, "\(reply)")
            tokens.append((try #require(reply.json?["jws"]?.string), "promotional-offer"))
        }
        let verified = try await Independent.verifyWithPython(tokens)
        #expect(verified.map { $0.claims["bid"]?.string } == [DemoKey.bundleId, Self.otherBundleId])
        server.terminate()
        await #expect(server.waitForExit().status == 0)
    }

    @Test(
        .enabled(Independent.pythonReason) { await Independent.pythonAvailable || Independent.isCI },
        .enabled(Independent.opensslReason) { await Independent.opensslAvailable || Independent.isCI })
    func aBatchOf100IsSignedInOrderAndVerifiesWithPyJWTAndOpenSSL() async throws {
        let key = try await ServeFixture.createKey(name: "batch")
        let (server, port) = try await ServeFixture.start(["--burst", "200"], keys: [key])
        defer { server.terminate() }
        // 100 items over both apps, three types; every tenth item names an app the service lacks.
        let bundleIds = [DemoKey.bundleId, Self.otherBundleId]
        let items = (0..<100).map { index -> String in
            let bundleId = index % 10 == 9 ? "com.example.offerkit.nowhere" : bundleIds[index % 2]
            let offer =
                #""bundleId":"\#(bundleId)","productId":"com.example.offerkit.monthly","offerIdentifier":"WINBACK50""#
            switch index % 3 {
            case 0: return #"{"type":"promotional-offer","id":\#(index),\#(offer)}"#
            case 1: return #"{"type":"legacy-promotional-offer","id":"item-\#(index)",\#(offer)}"#
            default:
                return #"{"type":"introductory-offer-eligibility","id":\#(index),"bundleId":"\#(bundleId)","#
                    + #""productId":"com.example.offerkit.monthly","allowIntroductoryOffer":true,"transactionId":"1"}"#
            }
        }
        let reply = try await HTTPConnection.request(
            "POST", "/v1/signatures/batch", port: port, headers: Self.signHeaders(key, requestId: "batch-100"),
            body: #"{"requests":["# + items.joined(separator: ",") + "]}")
        #expect(reply.status == 200, "\(reply)")
        let results = try #require(reply.json?["results"]?.array, "\(reply)")
        try #require(results.count == 100)
        #expect(reply.json?["succeeded"] == .int(90))
        #expect(reply.json?["failed"] == .int(10))
        var tokens: [(token: String, audience: String)] = []
        for (index, result) in results.enumerated() {
            #expect(result["index"] == .int(Int64(index)))
            #expect(result["id"] == (index % 3 == 1 ? .string("item-\(index)") : .int(Int64(index))))
            let bundleId = bundleIds[index % 2]
            if index % 10 == 9 {
                #expect(result["status"] == .int(404), "\(result)")
                #expect(result["problem"]?["type"]?.string == "urn:offerkit:problem:unknown-app")
                #expect(result["problem"]?["requestId"]?.string == "batch-100")
                continue
            }
            #expect(result["status"] == .int(200), "\(result)")
            switch index % 3 {
            case 1:
                let message = Independent.legacyMessage(
                    bundleId: bundleId, productId: "com.example.offerkit.monthly", offerId: "WINBACK50",
                    appAccountToken: "", nonce: try #require(result["nonce"]?.string),
                    timestamp: Int64(try #require(result["timestamp"]?.int)))
                let checked = try await Independent.opensslVerify(
                    signatureBase64: try #require(result["signature"]?.string), message: message)
                #expect(checked.status == 0, "\(index): openssl refused the signature: \(checked.stderr)")
            case 0: tokens.append((try #require(result["jws"]?.string), "promotional-offer"))
            default: tokens.append((try #require(result["jws"]?.string), "introductory-offer-eligibility"))
            }
        }
        let verified = try await Independent.verifyWithPython(tokens)
        #expect(verified.count == tokens.count)
        // The request counts once, each signature by its type.
        let metrics = try await HTTPConnection.request(
            "GET", "/metrics", port: port, headers: [("Authorization", "Bearer \(key.secret)")], body: nil)
        #expect(metrics.body.contains(#"offerkit_http_requests_total{operation="signBatch",status="200"} 1"#))
        #expect(metrics.body.contains(#"offerkit_signatures_total{type="legacy-promotional-offer"} 30"#))
        #expect(metrics.body.contains(#"offerkit_problems_total{type="unknown-app"} 10"#))
    }

    @Test func noAuthOnLoopbackWarnsLoudlyAndTakesRequestsWithoutAKey() async throws {
        let (server, port) = try await ServeFixture.start(["--no-auth"])
        #expect(server.stderr.contains("AUTHENTICATION IS OFF"), "\(server.result())")
        let reply = try await HTTPConnection.request(
            "POST", Self.signPath, port: port, headers: Self.signHeaders(nil, requestId: "no-auth"),
            body: Self.offerBody(bundleId: DemoKey.bundleId))
        try Self.expectSignedOffer(reply, bundleId: DemoKey.bundleId)
        server.terminate()
        await #expect(server.waitForExit().status == 0)
    }

    @Test(arguments: ["0.0.0.0", "::", "192.0.2.10"])
    func noAuthIsRefusedOffLoopback(host: String) async throws {
        let result = try await CLI.run(["serve", "--config", ServeFixture.servicePath, "--no-auth", "--host", host])
        Expect.failure(result, status: 2, mentioning: ["--no-auth", host, "loopback"])
    }

    @Test func withoutAPIKeysItRefusesToStart() async throws {
        let result = try await CLI.run(["serve", "--config", ServeFixture.servicePath, "--port", "0"])
        Expect.failure(result, status: 3, mentioning: ["no API keys", "offerkit api-key create", "OFFERKIT_API_KEYS"])
    }

    @Test func aMissingConfigurationIsNamed() async throws {
        let result = try await CLI.run(["serve", "--config", "/nonexistent/service.json", "--no-auth"])
        Expect.failure(result, status: 3, mentioning: ["/nonexistent/service.json", "cannot read"])
    }

    @Test func aConfigurationOfTheWrongShapeIsNamed() async throws {
        // keys-example/config.json is the signing commands' format, not the service's.
        let result = try await CLI.run(["serve", "--config", DemoKey.configPath, "--no-auth"])
        Expect.failure(result, status: 3, mentioning: ["config.json"])
    }

    @Test func aBadAPIKeyEntryInTheEnvironmentIsNamed() async throws {
        let result = try await CLI.run(
            ["serve", "--config", ServeFixture.servicePath, "--port", "0"],
            environment: ["OFFERKIT_API_KEYS": #"[{"name":"x","sha256":"abc","scopes":["*"],"bundleIds":["*"]}]"#])
        Expect.failure(result, status: 3, mentioning: ["OFFERKIT_API_KEYS", "sha256"])
    }

    @Test func aPortInUseIsAnIOError() async throws {
        let holder = try ListeningSocket()
        let result = try await CLI.run([
            "serve", "--config", ServeFixture.servicePath, "--no-auth", "--port", String(holder.port),
        ])
        Expect.failure(result, status: 5, mentioning: ["127.0.0.1:\(holder.port)", "already in use"])
    }

    @Test(arguments: [
        ["--port", "70000"], ["--max-body-bytes", "10"], ["--timeout", "0"], ["--rate-limit", "-1"],
        ["--burst", "0"], ["--log-level", "loud"], ["--max-connections", "0"], ["--max-connections", "1000001"],
        ["--backlog", "0"], ["--backlog", "70000"],
    ])
    func outOfRangeFlagsAreUsageErrors(flags: [String]) async throws {
        let result = try await CLI.run(["serve", "--config", ServeFixture.servicePath, "--no-auth"] + flags)
        Expect.failure(result, status: 2, mentioning: [flags[0]])
    }
}
