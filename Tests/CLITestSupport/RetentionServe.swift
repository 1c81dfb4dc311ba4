import AppleTestChain
import Foundation
import InteropSupport
import Testing

/// A real `offerkit serve` answering Get Retention Message requests for the demo app, as a test
/// starts it next to the App Store Server API stand-in: its configuration (in its own folder) gives
/// the demo key, the stand-in's App Apple ID, `retention` for the sandbox with the given roots and
/// rules; it runs without API keys (`--no-auth`, loopback), so `/metrics` is readable.
final class RetentionServe: @unchecked Sendable {
    /// `retention.path` (the default).
    static let path = "/v1/retention/realtime"

    let server: ServerProcess
    let port: Int
    let configPath: String
    private let folder: TempDir

    /// `http://127.0.0.1:PORT`: the origin the stand-in delivers its performance test to.
    var origin: String { "http://127.0.0.1:\(port)" }

    /// Starts `offerkit serve` trusting `rootPEM` (the stand-in's test root: ``trusting(_:rules:)``)
    /// with the demo app's `rules` (a JSON array).
    init(rootPEM: String, rules: String = RetentionExample.rulesJSON) async throws {
        folder = try TempDir.make()
        _ = try folder.write(rootPEM, to: "root.pem")
        configPath = try folder.write(
            """
            {
              "apps": {
                "\(DemoKey.bundleId)": { "keyFile": "\(DemoKey.keyPath)", "keyId": "\(DemoKey.keyId)",
                                         "issuerId": "\(DemoKey.issuerId)",
                                         "appAppleId": \(AppStoreServerStandIn.appAppleId) }
              },
              "retention": {
                "environments": ["Sandbox"],
                "rootCertificates": ["root.pem"],
                "apps": { "\(DemoKey.bundleId)": \(rules) }
              }
            }
            """, to: "service.json")
        server = try ServerProcess(["serve", "--config", configPath, "--port", "0", "--no-auth"])
        let prefix = "offerkit: listening on http://127.0.0.1:"
        let line = try await server.waitForStderrLine(containing: prefix)
        guard let port = Int(line.dropFirst(prefix.count)) else {
            throw CLIRunnerError(description: "no port in \(line)")
        }
        self.port = port
    }

    /// A serve that trusts `standIn`'s test root: the stand-in's performance test verifies there.
    static func trusting(_ standIn: AppStoreServerStandIn, rules: String = RetentionExample.rulesJSON) async throws
        -> RetentionServe
    {
        try await RetentionServe(
            rootPEM: try String(contentsOfFile: standIn.testRootPath, encoding: .utf8), rules: rules)
    }

    deinit { folder.remove() }

    /// `GET /metrics` (Prometheus text).
    func metrics() async throws -> String {
        let reply = try await HTTPConnection.request("GET", "/metrics", port: port)
        guard reply.status == 200 else { throw CLIRunnerError(description: "GET /metrics: \(reply)") }
        return reply.body
    }

    /// The value of the sample `name{labels}` in Prometheus text, or `nil` when it is not there.
    static func sample(_ sample: String, in metrics: String) -> Double? {
        metrics.split(separator: "\n").lazy.compactMap { line -> Double? in
            guard line.hasPrefix(sample + " ") else { return nil }
            return Double(line.dropFirst(sample.count + 1))
        }.first
    }

    /// Sends the server SIGTERM and returns at once (for `defer`).
    func terminate() { server.terminate() }

    /// Stops the server (SIGTERM) and returns what it did.
    @discardableResult
    func stop() async -> CLIResult {
        server.terminate()
        return await server.waitForExit()
    }
}
